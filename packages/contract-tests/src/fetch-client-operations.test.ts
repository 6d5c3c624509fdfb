// Every operation of both descriptions, called through the openapi-fetch clients (createFetchClient,
// createLegacyFetchClient) against the Prism mocks: with only its required fields and with all of them (the
// answer must match the operation's 200 schema), once for each documented error example (the error body
// must be that example), and once for the 529 answer. A coverage check fails when an operation is missing.
import { createFetchClient, createLegacyFetchClient } from '@idv-toolkit/client';
import { describe, expect, inject, it } from 'vitest';
import { documents, operations, resolve, type ApiName, type OperationEntry } from './documents.js';
import { expectValidSuccess } from './expect-success.js';
import { fakeKey } from './fake-key.js';
import { requestParams } from './request-values.js';

type Answer = { data?: unknown; error?: unknown; response: Response };
type LooseClient = { POST(path: string, init: Record<string, unknown>): Promise<Answer> };

const urls = inject('mockUrls');
const settings = { companyKey: fakeKey, rateLimit: false as const };
// The typed clients take literal paths; this suite walks the paths of the documents, so it calls them loosely.
const clients: Record<ApiName, LooseClient> = {
  current: createFetchClient({ ...settings, baseUrl: urls.current }) as unknown as LooseClient,
  legacy: createLegacyFetchClient({ ...settings, baseUrl: urls.legacy }) as unknown as LooseClient,
};
const pathValues = { registry: 'companies-house' };

/** The operation through its openapi-fetch client; file answers are read as a Blob, like the client's own methods. */
function call(entry: OperationEntry, body: Record<string, unknown>, headers?: Record<string, string>): Promise<Answer> {
  const files = !entry.operation.responses['200']?.content?.['application/json'];
  const path = entry.path.includes('{') ? { path: pathValues } : {};
  return clients[entry.api].POST(entry.path, { body, params: path, headers, parseAs: files ? 'blob' : 'json' });
}

function errorExamples({ api, operation }: OperationEntry) {
  const response = resolve(documents[api], operation.responses['400'] as never) as { content?: Record<string, { examples?: Record<string, { value: Record<string, string> }> }> };
  return Object.entries(response?.content?.['application/json']?.examples ?? {});
}

const covered = new Set<string>();

describe.each(operations.map((entry) => [`openapi-fetch ${entry.api} ${entry.path}`, entry] as const))('%s', (_name, entry) => {
  covered.add(`${entry.api}:${entry.operation.operationId}`);

  it.each([
    ['only its required fields', false],
    ['all its fields', true],
  ])('answers a call with %s as its 200 schema says', async (_label, allFields) => {
    const { data, error, response } = await call(entry, requestParams(entry, allFields));
    expect({ status: response.status, error }).toEqual({ status: 200, error: undefined });
    expectValidSuccess(entry, data);
  });

  it.each(errorExamples(entry).map(([name, example]) => [name, example.value] as const))('gives the documented error %s as its body', async (name, body) => {
    const { data, error, response } = await call(entry, requestParams(entry, false), { Prefer: `code=400, example=${name}` });
    expect({ status: response.status, data, error }).toEqual({ status: 400, data: undefined, error: body });
  });

  it('gives the 529 answer as an error', async () => {
    const { data, response } = await call(entry, requestParams(entry, false), { Prefer: 'code=529' });
    expect({ status: response.status, data }).toEqual({ status: 529, data: undefined });
  });
});

describe('openapi-fetch coverage', () => {
  it('every operation of both descriptions is called through the openapi-fetch clients', () => {
    const all = operations.map((e) => `${e.api}:${e.operation.operationId}`);
    expect(all.length).toBeGreaterThanOrEqual(53);
    expect(new Set(operations.map((e) => e.api))).toEqual(new Set(['current', 'legacy']));
    expect([...covered].sort()).toEqual([...all].sort());
  });
});
