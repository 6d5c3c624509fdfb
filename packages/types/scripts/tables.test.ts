// The operation and callback tables generated beside the types, on made-up descriptions: the client acts
// on them (retry safety, body encoding, error keys), the callback receiver and the trigger too (required
// fields, types and values, example).
import { describe, expect, it } from 'vitest';
import { alpha } from './made-up-descriptions.test-helper.js';
// @ts-expect-error -- a plain ESM script without type declarations
import { operationTable, webhookTable } from './tables.mjs';

// Built inside each test rather than once, so that a mutation tool sees which test runs which line.
const column = (name: string) => Object.fromEntries(Object.entries(operationTable(alpha)).map(([id, row]: [string, any]) => [id, row[name]]));

describe('the operation table', () => {
  it('gives each operation its path, method, path parameters and retry safety (only `x-idempotent: true` is safe)', () => {
    const operations = operationTable(alpha);
    expect(Object.keys(operations)).toEqual(['upload', 'read', 'problem', 'mixed', 'empty']);
    expect(operations.upload).toMatchObject({ path: '/upload/{itemId}', method: 'POST', idempotent: false, pathParams: ['itemId'] });
    expect(operations.read).toMatchObject({ path: '/read', method: 'GET', idempotent: true, pathParams: [] });
    expect(column('idempotent')).toEqual({ upload: false, read: true, problem: false, mixed: false, empty: false });
  });

  it('says how each body travels: query, multipart, JSON (also +json), text, bytes, or none', () => {
    expect(column('request')).toEqual({ upload: 'multipart', read: 'query', problem: 'json', mixed: 'none', empty: 'none' });
    expect(column('response')).toEqual({ upload: 'binary', read: 'text', problem: 'none', mixed: 'binary', empty: 'none' });
  });

  it('lists the error keys of the 400, through references and every oneOf, anyOf and allOf branch', () => {
    expect(column('errorKeys')).toEqual({ upload: ['argumentError', 'internalError'], read: [], problem: [], mixed: [], empty: [] });
  });

  it('lists the error keys in name order, and none for a 400 without a JSON body or with a reference to nothing', () => {
    const answer = (response: object) => ({ operationId: 'x', responses: { '400': response } });
    const table = operationTable({
      paths: {
        '/a': { post: { ...answer({ content: { 'application/json': { schema: { properties: { internalError: {}, error: {}, argumentError: {} } } } } }), operationId: 'a' } },
        '/b': { post: { ...answer({ content: { 'text/plain': { schema: { type: 'string' } } } }), operationId: 'b' } },
        '/c': { post: { ...answer({ $ref: '#/components/responses/Gone/deeper' }), operationId: 'c' } },
      },
    });
    expect(Object.fromEntries(Object.entries(table).map(([id, row]: [string, any]) => [id, row.errorKeys]))).toEqual({
      a: ['argumentError', 'error', 'internalError'],
      b: [],
      c: [],
    });
  });

  it('leaves out methods other than POST and GET', () => {
    const table = operationTable({ paths: { '/x': { put: { operationId: 'put', responses: {} }, post: { operationId: 'post', responses: {} } } } });
    expect(Object.keys(table)).toEqual(['post']);
  });
});

describe('the callback table', () => {
  it("gives each callback its required fields, each field's JSON types and fixed values, and its first example", () => {
    expect(webhookTable(alpha)).toEqual({
      'with-example': {
        required: ['type', 'status'],
        fields: { type: { types: [], values: ['event'] }, status: { types: ['string'], values: ['open', 'closed'] }, count: { types: ['integer', 'null'] } },
        example: { type: 'event', status: 'open' },
      },
      'schema-example': { required: [], fields: { note: { types: [] } }, example: { note: 'from the schema' } },
    });
  });

  it('is empty for a description without callbacks', () => {
    expect(webhookTable({ paths: {} })).toEqual({});
  });
});
