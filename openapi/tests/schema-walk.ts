// Every schema of a bundled description with its JSON pointer, inline ones included, so that a rule can
// be checked on all of them and a failure names the place.
import type { Schema } from './bundles.js';
import { pointerTo } from './validator.js';

// Keywords whose value is a schema, and those whose value is a list or a map of schemas.
const schemaKeys = ['schema', 'contentSchema', 'items', 'additionalProperties', 'not', 'if', 'then', 'else', 'unevaluatedProperties'];
const schemaListKeys = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const schemaMapKeys = ['properties', 'patternProperties', '$defs'];

export type Found = { pointer: string; schema: Schema };

/** Every schema of a document with its JSON pointer: component schemas and those inline in operations. */
export function schemasOf(document: unknown): Found[] {
  const found: Found[] = [];
  const visitSchema = (schema: unknown, path: string[]) => {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
    const node = schema as Schema;
    found.push({ pointer: pointerTo(...path), schema: node });
    for (const key of schemaKeys) visitSchema(node[key], [...path, key]);
    for (const key of schemaListKeys) {
      if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((item, i) => visitSchema(item, [...path, key, String(i)]));
    }
    for (const key of schemaMapKeys) {
      const map = node[key];
      if (map && typeof map === 'object') for (const [name, item] of Object.entries(map)) visitSchema(item, [...path, key, name]);
    }
  };
  // Outside schemas, look for the places that hold one (`schema`, and component schemas).
  const visit = (node: unknown, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, [...path, String(i)]));
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema') visitSchema(value, [...path, key]);
      else if (key === 'schemas' && path.length === 1 && path[0] === 'components') {
        for (const [name, schema] of Object.entries(value as object)) visitSchema(schema, [...path, key, name]);
      } else if (!['example', 'examples'].includes(key)) visit(value, [...path, key]);
    }
  };
  visit(document, []);
  return found;
}
