// Every operation of both descriptions, called through the client against the sandbox, with only its
// required fields and with all of them, on state made for it: the answer must be a 200 that matches the
// operation's 200 schema.
import { IdvApiError, legacyMethodName } from '@idv-toolkit/client';
import { describe, inject, it } from 'vitest';
import { operations, type ApiName } from './documents.js';
import { expectValidSuccess } from './expect-success.js';
import { makeFixtures, sandboxClients, withFixtures } from './sandbox-fixtures.js';
import { requestParams } from './request-values.js';

const url = inject('sandboxUrl');
const { idv, legacy } = sandboxClients(url);
const clients: Record<ApiName, Record<string, Function>> = { current: idv as never, legacy: legacy as never };

describe.each(operations.map((entry) => [`${entry.api} ${entry.path}`, entry] as const))('sandbox %s', (_name, entry) => {
  it.each([
    ['only its required fields', false],
    ['all its fields', true],
  ])('answers a call with %s with a 200 its schema allows', async (_label, allFields) => {
    const fixtures = await makeFixtures(url);
    const { operationId } = entry.operation;
    const method = clients[entry.api][entry.api === 'legacy' ? legacyMethodName(operationId) : operationId]!;
    const params = withFixtures(requestParams(entry, allFields), fixtures, operationId);
    const data = await method(params, { path: { registry: 'companies-house' } }).catch((error: unknown) => {
      throw error instanceof IdvApiError ? new Error(`${operationId} answered ${error.status} ${JSON.stringify(error.body)} to ${JSON.stringify(params)}`) : error;
    });
    expectValidSuccess(entry, data);
  });
});
