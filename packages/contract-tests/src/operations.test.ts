// Every operation of both descriptions, called through the client against the Prism mocks: with only its
// required fields and with all of them (the answer must match the operation's 200 schema), once for each
// documented error example (the client must surface that code), and once for the 529 answer.
import { createClient, createLegacyClient, IdvApiError, IdvRateLimitError, legacyMethodName } from '@idv-toolkit/client';
import { describe, expect, inject, it } from 'vitest';
import { documents, operations, resolve, type ApiName, type OperationEntry } from './documents.js';
import { expectValidSuccess } from './expect-success.js';
import { fakeKey } from './fake-key.js';
import { requestParams } from './request-values.js';

const urls = inject('mockUrls');
const settings = { companyKey: fakeKey, rateLimit: false as const, retry: false as const };
const clients: Record<ApiName, Record<string, Function>> = {
  current: createClient({ ...settings, baseUrl: urls.current }) as never,
  legacy: createLegacyClient({ ...settings, baseUrl: urls.legacy }) as never,
};
const methodName = (api: ApiName, operationId: string) => (api === 'legacy' ? legacyMethodName(operationId) : operationId);
const pathValues = { registry: 'companies-house' };

function call(entry: OperationEntry, params: Record<string, unknown>, headers?: Record<string, string>) {
  const method = clients[entry.api][methodName(entry.api, entry.operation.operationId)];
  if (!method) throw new Error(`The ${entry.api} client has no method for ${entry.operation.operationId}`);
  return method(params, { path: pathValues, headers });
}

function errorExamples({ api, operation }: OperationEntry) {
  const response = resolve(documents[api], operation.responses['400'] as never) as { content?: Record<string, { examples?: Record<string, { value: Record<string, string> }> }> };
  return Object.entries(response?.content?.['application/json']?.examples ?? {});
}

const covered = new Set<string>();

describe.each(operations.map((entry) => [`${entry.api} ${entry.path}`, entry] as const))('%s', (_name, entry) => {
  covered.add(`${entry.api}:${entry.operation.operationId}`);

  it.each([
    ['only its required fields', false],
    ['all its fields', true],
  ])('answers a call with %s as its 200 schema says', async (_label, allFields) => {
    const params = requestParams(entry, allFields);
    await expectValidSuccess(entry, await call(entry, params));
  });

  it.each(errorExamples(entry).map(([name, example]) => [name, example.value] as const))(
    'surfaces the documented error %s as a typed error',
    async (name, body) => {
      const error = await call(entry, requestParams(entry, false), { Prefer: `code=400, example=${name}` }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdvApiError);
      expect(error).toMatchObject({ status: 400, operation: entry.operation.operationId, body });
      expect((error as IdvApiError).code).toBe(body.argumentError ?? body.error ?? 'internal-error');
    },
  );

  it('surfaces the 529 answer as a rate-limit error', async () => {
    const error = await call(entry, requestParams(entry, false), { Prefer: 'code=529' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvRateLimitError);
  });
});

describe('coverage', () => {
  it('every operation of both descriptions has contract tests, and the client has a method for each', () => {
    const all = operations.map((e) => `${e.api}:${e.operation.operationId}`);
    expect(all).toHaveLength(53);
    expect([...covered].sort()).toEqual([...all].sort());
    for (const { api, operation } of operations) expect(typeof clients[api][methodName(api, operation.operationId)]).toBe('function');
  });
});
