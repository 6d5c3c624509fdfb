// What the sandbox answers of a stored record: every property it has that the interface's schema of that
// record describes, read from the bundled description at run time. A property added to the schema (and
// stored from the request that carries it) is in the answers with no code change; what the sandbox keeps
// only for itself (a user's e-mail address) is not.
import type { Current } from '@idv-toolkit/types';
import { loadDocument } from './spec.js';

type Schemas = { BlacklistRecord: Current.BlacklistRecord; Group: Current.Group; MonitoringRecord: Current.MonitoringRecord; User: Current.User };
export type ShownSchema = keyof Schemas;

let schemas: Record<string, { properties?: Record<string, unknown> }> | undefined;
const known = new Map<string, readonly string[]>();

/** The property names of one of the current interface's schemas, or of `document`'s (tests). */
export function schemaProperties(name: string, document?: { components?: { schemas?: Record<string, any> } }): readonly string[] {
  if (document) return Object.keys(document.components?.schemas?.[name]?.properties ?? {});
  let names = known.get(name);
  if (!names) {
    schemas ??= loadDocument('current').components?.schemas ?? {};
    names = Object.keys(schemas![name]?.properties ?? {});
    known.set(name, names);
  }
  return names;
}

type Picker = (source: Record<string, unknown>) => Record<string, unknown>;
const pickers = new Map<string, Picker>();

/**
 * A function that copies the schema's properties by name, one statement each (built once per schema):
 * every answer then has the same shape and each read is a plain property access, where a loop over the
 * names reads and writes by computed key (issue 14's sandbox bench: list-blacklist-records).
 */
function pickerOf(names: readonly string[]): Picker {
  const body = names
    .map((name) => `v = s[${JSON.stringify(name)}]; if (v !== undefined) p[${JSON.stringify(name)}] = Array.isArray(v) ? v.slice() : v;`)
    .join('\n');
  return new Function('s', `const p = {};\nlet v;\n${body}\nreturn p;`) as Picker;
}

/** The fields of `source` that the schema `name` describes (lists copied): what a record takes from a request, or shows of itself. */
export function pickSchema(name: ShownSchema, source: Record<string, unknown>): Record<string, unknown> {
  let pick = pickers.get(name);
  if (!pick) pickers.set(name, (pick = pickerOf(schemaProperties(name))));
  return pick(source);
}

/** A stored record as the interface shows it: each property of its schema that the record has. */
export function shown<Name extends ShownSchema>(name: Name, record: Schemas[Name]): Schemas[Name] {
  return pickSchema(name, record as Record<string, unknown>) as Schemas[Name];
}
