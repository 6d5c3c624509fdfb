// What the generator writes for a description, on small made-up descriptions that use what the real ones
// do not (yet): text and `+json` bodies, bodies-less operations and answers, files either way, JSON text
// form fields, errors in allOf branches, callbacks without examples. The client and the callback receiver
// act on these tables (retry safety, body encoding, error keys, required callback fields).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { generateAll } from './generate.mjs';

const json = (schema: object) => ({ 'application/json': { schema } });
const ok = { '200': { description: 'OK', content: json({ type: 'object' }) } };

const alpha = {
  openapi: '3.1.0',
  info: { title: 'alpha', version: '1.0.0' },
  paths: {
    '/upload/{itemId}': {
      post: {
        operationId: 'upload',
        'x-idempotent': false,
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  file: { type: 'string', format: 'binary' },
                  options: { type: 'string', contentMediaType: 'application/json', contentSchema: { type: 'object', properties: { colour: { type: 'string' } } } },
                },
              },
            },
          },
        },
        responses: {
          '200': { description: 'The file back', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          '400': { $ref: '#/components/responses/UploadError' },
        },
      },
    },
    '/read': {
      get: { operationId: 'read', 'x-idempotent': true, responses: { '200': { description: 'Text', content: { 'text/plain': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } } } } },
    },
    '/problem': {
      post: {
        operationId: 'problem',
        'x-idempotent': 'yes',
        requestBody: { content: { 'application/merge-patch+json': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'Nothing' }, '400': { description: 'No body' } },
      },
    },
    '/mixed': {
      post: {
        operationId: 'mixed',
        responses: { '200': { description: 'Text or bytes', content: { 'text/plain': { schema: { type: 'string' } }, 'application/octet-stream': { schema: { type: 'string' } } } }, '400': { description: 'Bad', content: json({ $ref: '#/components/schemas/Plain' }) } },
      },
    },
    '/empty': { post: { operationId: 'empty', responses: { '200': { description: 'No content', content: {} } } } },
  },
  webhooks: {
    'with-example': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Event' },
              examples: { first: { value: { type: 'event', status: 'open' } }, second: { value: { type: 'event', status: 'closed' } } },
            },
          },
        },
        responses: ok,
      },
    },
    'schema-example': {
      post: {
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { note: {} }, example: { note: 'from the schema' } } } } },
        responses: ok,
      },
    },
  },
  components: {
    responses: { UploadError: { description: 'Bad upload', content: json({ $ref: '#/components/schemas/UploadError' }) } },
    schemas: {
      UploadError: { oneOf: [{ $ref: '#/components/schemas/ArgumentError' }, { allOf: [{ type: 'object', properties: { internalError: { type: 'string' } } }] }] },
      ArgumentError: { type: 'object', properties: { argumentError: { enum: ['wrong-parameters'] }, other: { type: 'string' } } },
      Plain: { type: 'object', properties: { message: { type: 'string' } } },
      Event: {
        type: 'object',
        required: ['type', 'status'],
        properties: {
          type: { const: 'event' },
          status: { $ref: '#/components/schemas/Status' },
          count: { type: ['integer', 'null'] },
        },
      },
      Status: { type: 'string', enum: ['open', 'closed'] },
    },
  },
};
const beta = { openapi: '3.1.0', info: { title: 'beta', version: '1.0.0' }, paths: { '/ping': { post: { operationId: 'ping', 'x-idempotent': true, responses: ok } } } };

const tmp = mkdtempSync(join(tmpdir(), 'idv-generate-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let files: Map<string, string>;
beforeAll(async () => {
  const bundleDir = join(tmp, 'bundles');
  mkdirSync(bundleDir);
  writeFileSync(join(bundleDir, 'beta.json'), JSON.stringify(beta));
  writeFileSync(join(bundleDir, 'alpha.json'), JSON.stringify(alpha));
  writeFileSync(join(bundleDir, 'README.md'), '# Not a description\n');
  files = await generateAll({ bundleDir });
});

/** The object literal a generated table file exports (`export const <name> = {...} as const;`). */
function table(file: string, name: string): any {
  const text = files.get(file)!;
  const start = text.indexOf(`export const ${name} = `);
  expect(start, `${file} exports ${name}`).toBeGreaterThan(-1);
  return JSON.parse(text.slice(start + `export const ${name} = `.length, text.lastIndexOf(' as const;')));
}

describe('the generated files', () => {
  it('are the types and the operation table of each description, and the callback table of those with callbacks', () => {
    expect([...files.keys()]).toEqual(['alpha.ts', 'alpha-operations.ts', 'alpha-webhooks.ts', 'beta.ts', 'beta-operations.ts']);
    expect(files.get('beta-operations.ts')).toMatch(/^\/\/ Generated by packages\/types\/scripts\/generate\.mjs from openapi\/beta\. Do not edit/);
  });
});

describe('the operation table', () => {
  it('gives each operation its path, method, path parameters and retry safety (only `x-idempotent: true` is safe)', () => {
    const operations = table('alpha-operations.ts', 'operationTable');
    expect(Object.keys(operations)).toEqual(['upload', 'read', 'problem', 'mixed', 'empty']);
    expect(operations.upload).toMatchObject({ path: '/upload/{itemId}', method: 'POST', idempotent: false, pathParams: ['itemId'] });
    expect(operations.read).toMatchObject({ path: '/read', method: 'GET', idempotent: true, pathParams: [] });
    expect(operations.problem.idempotent).toBe(false);
    expect(operations.mixed.idempotent).toBe(false);
  });

  it('says how each body travels: query, multipart, JSON (also +json), text, bytes, or none', () => {
    const operations = table('alpha-operations.ts', 'operationTable');
    const encodings = Object.fromEntries(Object.entries(operations).map(([id, row]: [string, any]) => [id, [row.request, row.response]]));
    expect(encodings).toEqual({
      upload: ['multipart', 'binary'],
      read: ['query', 'text'],
      problem: ['json', 'none'],
      mixed: ['none', 'binary'],
      empty: ['none', 'none'],
    });
  });

  it('lists the error keys of the 400, through references and every oneOf, anyOf and allOf branch', () => {
    const operations = table('alpha-operations.ts', 'operationTable');
    expect(Object.fromEntries(Object.entries(operations).map(([id, row]: [string, any]) => [id, row.errorKeys]))).toEqual({
      upload: ['argumentError', 'internalError'],
      read: [],
      problem: [],
      mixed: [],
      empty: [],
    });
  });
});

describe('the callback table', () => {
  it('gives each callback its required fields, each field\'s JSON types and fixed values, and its first example', () => {
    expect(table('alpha-webhooks.ts', 'webhookTable')).toEqual({
      'with-example': {
        required: ['type', 'status'],
        fields: { type: { types: [], values: ['event'] }, status: { types: ['string'], values: ['open', 'closed'] }, count: { types: ['integer', 'null'] } },
        example: { type: 'event', status: 'open' },
      },
      'schema-example': { required: [], fields: { note: { types: [] } }, example: { note: 'from the schema' } },
    });
  });
});

describe('the types', () => {
  it('take a file the caller sends as a Blob or bytes, give a file the service answers as a Blob', () => {
    const types = files.get('alpha.ts')!;
    expect(types).toMatch(/file\?: Blob \| Uint8Array;/);
    expect(types).toMatch(/"application\/pdf": Blob;/);
  });

  it('take a form field of JSON text as the value itself or as its JSON text', () => {
    expect(files.get('alpha.ts')!).toMatch(/options\?: \{\s*colour\?: string;\s*\} \| string;/);
  });
});
