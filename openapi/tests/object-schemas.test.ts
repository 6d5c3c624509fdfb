// Every object schema says which keys it holds: its `properties`, or `additionalProperties` stated
// outright. An object schema with neither (or with only `additionalProperties: false`) becomes
// `Record<string, never>` in the generated types, which refuses every key: right for the few bodies the
// reference calls empty, wrong anywhere else (`flags: { skipIntro: true }` would not compile).
import { describe, expect, it } from 'vitest';
import { apiNames, bundleAll, type Schema } from './bundles.js';
import { schemasOf } from './schema-walk.js';
import { pointerTo } from './validator.js';

const documents = await bundleAll();

/** The object schemas that may hold no key at all, each with the reference's words that say so. */
const emptyByReference: Record<string, string> = {
  [pointerTo('components', 'schemas', 'EndVideoCallResponse')]: 'end-video-call: success body "empty object"',
  [pointerTo('components', 'schemas', 'ChangeGroupResponse')]: 'change-group: success body "empty object"',
  [pointerTo('components', 'schemas', 'DeleteGroupResponse', 'properties', 'result')]: 'delete-group: success body `{result: {}}`',
  [pointerTo('components', 'schemas', 'DeleteUserResponse')]: 'delete-user: success body "empty object"',
};

const isObjectSchema = (schema: Schema) =>
  schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
const combines = (schema: Schema) => ['allOf', 'anyOf', 'oneOf'].some((key) => Array.isArray(schema[key]));
const hasProperties = (schema: Schema) => Object.keys((schema.properties as object | undefined) ?? {}).length > 0;

/** An object schema that states neither its properties nor whether other keys are allowed. */
function isImplicit(schema: Schema): boolean {
  return isObjectSchema(schema) && !combines(schema) && !hasProperties(schema) && !('additionalProperties' in schema) && !('patternProperties' in schema);
}

/** An object schema that admits no key at all: the generated type is `Record<string, never>`. */
function admitsNoKey(schema: Schema): boolean {
  const closed = !('additionalProperties' in schema) || schema.additionalProperties === false;
  return isObjectSchema(schema) && !combines(schema) && !hasProperties(schema) && closed && !('patternProperties' in schema);
}

describe.each(apiNames)('object schemas of the %s description', (name) => {
  const schemas = schemasOf(documents[name]);

  it('are found, inline ones included', () => {
    expect(schemas.filter(({ schema }) => isObjectSchema(schema)).length).toBeGreaterThan(10);
    if (name === 'current') expect(schemas.map((s) => s.pointer)).toContain(pointerTo('components', 'schemas', 'SessionActivity', 'properties', 'data'));
  });

  it('state their properties or their additionalProperties explicitly', () => {
    expect(schemas.filter(({ schema }) => isImplicit(schema)).map((s) => s.pointer)).toEqual([]);
  });

  it('admit no key only where the reference says the object is empty', () => {
    const empty = schemas.filter(({ schema }) => admitsNoKey(schema)).map((s) => s.pointer);
    const allowed = name === 'current' ? Object.keys(emptyByReference).sort() : [];
    expect([...new Set(empty)].sort()).toEqual(allowed);
  });
});

describe('the object-schema rules', () => {
  it('catch an object without properties, and one closed to every key', () => {
    expect(isImplicit({ type: 'object', description: 'any options' })).toBe(true);
    expect(admitsNoKey({ type: 'object' })).toBe(true);
    expect(admitsNoKey({ type: 'object', additionalProperties: false })).toBe(true);
    expect(admitsNoKey({ type: ['object', 'null'], properties: {} })).toBe(true);
  });

  it('let an open object, one with properties and a combination through', () => {
    for (const schema of [
      { type: 'object', additionalProperties: true },
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'object', properties: { a: { type: 'string' } } },
      { type: 'object', patternProperties: { '^x-': {} } },
      { type: 'object', oneOf: [{ properties: { a: {} } }] },
      { type: 'string' },
    ]) {
      expect(isImplicit(schema), JSON.stringify(schema)).toBe(false);
      expect(admitsNoKey(schema), JSON.stringify(schema)).toBe(false);
    }
  });

  it('find a schema nested under properties, items and combinations', () => {
    const pointers = schemasOf({
      paths: { '/x': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'array', items: { oneOf: [{ type: 'object' }] } } } } } } } } } },
    }).map((s) => s.pointer);
    expect(pointers).toContain(pointerTo('paths', '/x', 'post', 'requestBody', 'content', 'application/json', 'schema', 'properties', 'a', 'items', 'oneOf', '0'));
  });
});
