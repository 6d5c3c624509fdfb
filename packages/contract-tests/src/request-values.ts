// Builds request bodies from a schema and the examples its properties carry: one with only the required
// fields (and what an anyOf/oneOf needs to be satisfied), one with every field.
import { documents, resolve, type Document, type OperationEntry, type Schema } from './documents.js';

const jpegBytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

export function valueOf(document: Document, node: Schema | undefined, allFields: boolean): unknown {
  const schema = resolve(document, node);
  if (!schema) return undefined;
  if (schema.format === 'binary') return new Blob([jpegBytes], { type: String(schema.contentMediaType ?? 'image/jpeg') });
  if ('const' in schema) return schema.const;
  if ('example' in schema && !isObjectSchema(schema)) return schema.example;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (isObjectSchema(schema)) return objectOf(document, schema, allFields);
  if (types.includes('array')) return [valueOf(document, schema.items as Schema, allFields)];
  for (const combinator of ['oneOf', 'anyOf'] as const) {
    const branches = schema[combinator] as Schema[] | undefined;
    if (branches?.length) return valueOf(document, branches[0], allFields);
  }
  if (types.includes('string')) return 'text';
  if (types.includes('integer') || types.includes('number')) return 1;
  if (types.includes('boolean')) return true;
  return schema.example;
}

function isObjectSchema(schema: Schema): boolean {
  return schema.type === 'object' || (schema.properties !== undefined && schema.type === undefined);
}

/** The property names a schema needs: its `required`, and the first branch's of each anyOf/oneOf. */
function neededOf(document: Document, schema: Schema): string[] {
  const needed = new Set<string>((schema.required as string[]) ?? []);
  for (const part of (schema.allOf as Schema[]) ?? []) for (const name of neededOf(document, resolve(document, part)!)) needed.add(name);
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const first = resolve(document, (schema[combinator] as Schema[] | undefined)?.[0]);
    if (first) for (const name of neededOf(document, first)) needed.add(name);
  }
  return [...needed];
}

function objectOf(document: Document, schema: Schema, allFields: boolean): Record<string, unknown> {
  const properties = (schema.properties as Record<string, Schema>) ?? {};
  const needed = neededOf(document, schema);
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!allFields && !needed.includes(name)) continue;
    const constant = constantFromBranches(document, schema, name);
    out[name] = constant !== undefined ? constant : valueOf(document, property, allFields);
  }
  return out;
}

// A property that an anyOf/oneOf branch pins to a constant (e.g. "at least one export flag is true").
function constantFromBranches(document: Document, schema: Schema, name: string): unknown {
  const parts = [schema, ...((schema.allOf as Schema[]) ?? []).map((p) => resolve(document, p)!)];
  for (const part of parts) {
    for (const combinator of ['anyOf', 'oneOf'] as const) {
      const first = resolve(document, (part[combinator] as Schema[] | undefined)?.[0]);
      const pinned = (first?.properties as Record<string, Schema> | undefined)?.[name];
      if (pinned && 'const' in pinned) return pinned.const;
    }
  }
  return undefined;
}

/** A generated request body for the operation, without the company key (the client adds it). */
export function requestParams({ api, operation }: OperationEntry, allFields: boolean): Record<string, unknown> {
  const [, media] = Object.entries(operation.requestBody!.content)[0]!;
  const body = valueOf(documents[api], media.schema, allFields) as Record<string, unknown>;
  delete body[api === 'current' ? 'companyKey' : 'company_key'];
  return body;
}
