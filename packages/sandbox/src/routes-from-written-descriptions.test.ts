// What spec.ts reads from descriptions written for the case (readRoutes' `load`), for the shapes the three
// bundled descriptions do not have yet: a GET operation (its query parameters checked, required ones
// required, a path parameter matched as one segment, a dot in the path taken as a dot), an operation that
// documents no 400 answer or no JSON 200 answer, a 400 answer of the `error` key through a reference and
// oneOf/anyOf/enum/const branches, a schema reached through an escaped name, a 200 example reached through a
// reference, and the fields of a multipart upload: binary files, a data URI, base64 text, JSON text with
// and without a schema of its own.
import { describe, expect, it } from 'vitest';
import { readRoutes, type ApiName } from './spec.js';

const current = {
  openapi: '3.1.0',
  paths: {
    '/find-{kind}/x.y': {
      get: {
        operationId: 'findThing',
        parameters: [
          { $ref: '#/components/parameters/Q' },
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'kind', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'x-trace', in: 'header', required: true, schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'no JSON', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/no-error': {
      post: {
        operationId: 'noError',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'string' } } } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { examples: { ok: { $ref: '#/components/examples/Ok' } } } } } },
      },
    },
    '/error-key': {
      post: {
        operationId: 'errorKey',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/a~1b~0c' } } } },
        responses: { '400': { $ref: '#/components/responses/Bad' }, '200': { description: 'ok', content: { 'application/json': { example: { done: true } } } } },
      },
    },
    '/upload': {
      post: {
        operationId: 'upload',
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  file: { type: 'string', format: 'binary' },
                  picture: { type: 'string', pattern: '^data:image/' },
                  packed: { type: 'string', contentEncoding: 'base64', minLength: 2 },
                  meta: { type: 'string', contentMediaType: 'application/json', contentSchema: { type: 'object', required: ['n'] } },
                  loose: { type: 'string', contentMediaType: 'application/json' },
                  note: { type: 'string', pattern: 'data:' },
                },
              },
            },
          },
        },
        responses: {},
      },
    },
  },
  components: {
    parameters: { Q: { name: 'q', in: 'query', required: true, schema: { type: 'string' } } },
    schemas: { 'a/b~c': { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } },
    responses: {
      Bad: {
        description: 'refused',
        content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/ErrorOne' }, { type: 'object', properties: { error: { anyOf: [{ const: 'z' }, { enum: ['y', 'x'] }] } } }] } } },
      },
    },
    examples: { Ok: { value: { ok: 'by reference' } } },
  },
};
current.components.schemas = { ...current.components.schemas, ErrorOne: { type: 'object', properties: { error: { $ref: '#/components/schemas/Codes' } } }, Codes: { enum: ['w'] } } as never;
const empty = { openapi: '3.1.0', paths: {} };
const load = (api: ApiName) => structuredClone(api === 'current' ? current : empty) as never;
// Read in each test (not once as the file loads): what a test checks is what it read itself.
const read = () => readRoutes(false, load);
const route = (operationId: string) => read().find((r) => r.operationId === operationId)!;

describe('routes of written descriptions', () => {
  it('are those of the documents given', () => {
    expect(read().map((r) => [r.api, r.method, r.operationId])).toEqual([
      ['current', 'GET', 'findThing'],
      ['current', 'POST', 'noError'],
      ['current', 'POST', 'errorKey'],
      ['current', 'POST', 'upload'],
    ]);
  });

  it('read a GET operation\'s query parameters, required ones required, its path parameter as one segment', () => {
    const find = route('findThing');
    expect(find).toMatchObject({ body: 'query', uploads: false, fileFields: [], jsonTextFields: [], example: undefined, errorKey: 'argumentError', codes: [] });
    expect(find.bigFields.size).toBe(0);
    expect(find.match.exec('/find-cats/x.y')?.groups).toEqual({ kind: 'cats' });
    for (const other of ['/find-cats/xzy', '/find-a/b/x.y', '/find-/x.y']) expect(find.match.test(other), other).toBe(false);
    expect(find.validate({ q: 'a' })).toBe(true);
    expect(find.validate({ q: 'a', limit: 3 })).toBe(true);
    expect(find.validate({})).toBe(false);
    expect(find.validate.errors?.[0]).toMatchObject({ keyword: 'required', params: { missingProperty: 'q' } });
    expect(find.validate({ q: 'a', limit: 'many' })).toBe(false);
    expect(find.validate.errors?.[0]?.instancePath).toBe('/limit');
    // Only query parameters: the path's and a header's are not asked of the query.
    expect(find.validate({ q: 'a', kind: 5, 'x-trace': 1 })).toBe(true);
  });

  it('answer with no codes of their own when the operation documents no 400, and with the first examples entry', () => {
    expect(route('noError')).toMatchObject({ errorKey: 'argumentError', codes: [], body: 'json', example: { ok: 'by reference' } });
  });

  it('read a 400 of the error key through references and branches, and a schema through an escaped name', () => {
    const errorKey = route('errorKey');
    expect(errorKey).toMatchObject({ errorKey: 'error', codes: ['w', 'z', 'y', 'x'], example: { done: true } });
    expect(errorKey.validate({ n: 1 })).toBe(true);
    expect(errorKey.validate({ n: 'one' })).toBe(false);
  });

  it('know a multipart upload\'s files (binary, data URI, base64) and JSON text fields', () => {
    const upload = route('upload');
    expect(upload).toMatchObject({ body: 'multipart', uploads: true, fileFields: ['file'], example: undefined, codes: [] });
    expect([...upload.bigFields].sort()).toEqual(['file', 'loose', 'meta', 'packed', 'picture']);
    expect(upload.jsonTextFields.map((f) => f.name)).toEqual(['meta']);
    const meta = upload.jsonTextFields[0]!.validate;
    expect([meta({ n: 1 }), meta({})]).toEqual([true, false]);
    expect(upload.validate({ packed: 'AB' })).toBe(true);
    expect(upload.validate({ packed: 'A' })).toBe(false);
  });
});
