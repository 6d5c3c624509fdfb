// Compile-time expectations of the generated client types; `vitest --typecheck` checks them.
import { expectTypeOf, test } from 'vitest';
import type { CurrentOperations, LegacyOperations, SandboxOperations } from '@idv-toolkit/types';
import { keyOnlyOperations } from './errors.js';
import { createClient, createLegacyClient, createSandboxClient, IdvApiError, isApiError, type NoParams, type ParamsOf } from './index.js';

const idv = createClient({ companyKey: 'ck_test_not_a_real_key_0000', baseUrl: 'http://127.0.0.1:4010' });
const legacy = createLegacyClient({ companyKey: 'ck_test_not_a_real_key_0000', baseUrl: 'http://127.0.0.1:4011' });
const safe = createClient({ companyKey: 'ck_test_not_a_real_key_0000', baseUrl: 'http://127.0.0.1:4010', throwOnError: false });

test('methods take the body without the company key and resolve to the success body', async () => {
  const added = await idv.addBlacklistRecord({ query: { reason: 'Forged document', documentNumber: 'X1' } });
  expectTypeOf(added.result).toEqualTypeOf<string>();
  const groups = await idv.listGroups();
  expectTypeOf(groups.result).toBeArray();
  const result = await legacy.getResult({ session_token: 'session-1' });
  expectTypeOf(result).toHaveProperty('person');
  expectTypeOf(await legacy.getCardFront({ session_token: 'session-1' })).toEqualTypeOf<Blob>();
  await legacy.extractCardFront({ image: new Uint8Array([0xff, 0xd8, 0xff]) });
  await idv.checkInRegistry({}, { path: { registry: 'companies-house' } });
});

test('wrong calls do not compile', async () => {
  // @ts-expect-error a required field (query.reason) is missing
  await idv.addBlacklistRecord({ query: { documentNumber: 'X1' } });
  // @ts-expect-error a field has the wrong type
  await idv.deleteUser({ userId: 42 });
  // @ts-expect-error no such operation
  await idv.addWhitelistRecord({});
  // @ts-expect-error no such path
  await idv.POST('/add-whitelist-record', { body: {} });
  // @ts-expect-error the registry check needs its path parameter
  await idv.checkInRegistry({});
  // @ts-expect-error legacy fields are snake_case
  await legacy.getResult({ sessionToken: 'session-1' });
});

test('the result style gives typed error codes', async () => {
  const { data, error } = await safe.addBlacklistRecord({ query: { reason: 'r', firstName: 'Jane' } });
  if (error instanceof IdvApiError) {
    expectTypeOf(error.code).toEqualTypeOf<'wrong-parameters' | 'invalid-company-key' | 'already-exists' | 'internal-error' | undefined>();
  } else if (data) {
    expectTypeOf(data.result).toEqualTypeOf<string>();
  }
});

test('the openapi-fetch client takes bodies without the key and knows the paths', async () => {
  const { createFetchClient } = await import('./index.js');
  const api = createFetchClient({ companyKey: 'ck_test_not_a_real_key_0000', baseUrl: 'http://127.0.0.1:4010' });
  const { data } = await api.POST('/add-blacklist-record', { body: { query: { reason: 'r', lastName: 'Roe' } } });
  expectTypeOf(data?.result).toEqualTypeOf<string | undefined>();
  // @ts-expect-error no such path
  await api.POST('/add-whitelist-record', { body: {} });
});

test('operations that take only the company key take no argument or {}', async () => {
  await idv.listUsers();
  await idv.listUsers({});
  await idv.listGroups(undefined, { timeoutMs: 1_000 });
  // @ts-expect-error nothing but the key: no other property
  await idv.listUsers({ anything: true });
  // @ts-expect-error nothing but the key: no other property
  await idv.listGroups({ companyKey: 'ck_test_other' });
  // @ts-expect-error nothing but the key: no other property
  await createSandboxClient({ companyKey: 'ck_test_not_a_real_key_0000', baseUrl: 'http://127.0.0.1:4020' }).listCallbacks({ anything: true });
});

test('the operations whose codes all blame the key are those that take nothing but the key (and paging)', () => {
  type Ops = CurrentOperations & LegacyOperations & SandboxOperations;
  type TakesNothing = { [Id in keyof Ops]: ParamsOf<Ops[Id]> extends NoParams ? Id : never }[keyof Ops];
  expectTypeOf<(typeof keyOnlyOperations)[number]>().toEqualTypeOf<TakesNothing | 'listBlacklistRecords' | 'listScreeningMonitoringRecords'>();
});

test('isApiError narrows code to the operation\'s codes', async () => {
  const error: unknown = await idv.addBlacklistRecord({ query: { reason: 'r', lastName: 'Roe' } }).catch((e: unknown) => e);
  if (isApiError(error, 'addBlacklistRecord')) {
    expectTypeOf(error.code).toEqualTypeOf<'wrong-parameters' | 'invalid-company-key' | 'already-exists' | 'internal-error' | undefined>();
    // @ts-expect-error not a code add-blacklist-record documents
    if (error.code === 'user-not-found') throw error;
  }
  if (isApiError(error, 'legacyGetResult')) expectTypeOf(error.code).toEqualTypeOf<'session-not-found' | 'internal-error' | undefined>();
  // @ts-expect-error no such operation
  isApiError(error, 'addWhitelistRecord');
});

test('the result style lets error?.code be compared on the whole error union', async () => {
  const { error } = await safe.deleteUser({ userId: 'usr-1' });
  if (error?.code === 'user-not-found') expectTypeOf(error).toMatchTypeOf<IdvApiError>();
  // @ts-expect-error not a code delete-user documents
  if (error?.code === 'already-exists') throw error;
});

test('withResponse gives the data, the answer and the request id', async () => {
  const { data, response, requestId } = await idv.listGroups.withResponse();
  expectTypeOf(data.result).toBeArray();
  expectTypeOf(response).toEqualTypeOf<Response>();
  expectTypeOf(requestId).toEqualTypeOf<string>();
});

test('.all() yields the items of the three list operations, and only they have it', async () => {
  for await (const record of idv.listBlacklistRecords.all()) expectTypeOf(record.id).toEqualTypeOf<string>();
  for await (const record of safe.listScreeningMonitoringRecords.all({ date: '2026-01-01T00:00:00Z' }, { pageSize: 50 })) expectTypeOf(record).toHaveProperty('fullName');
  for await (const hit of idv.searchScreeningPerson.all({ query: { fullName: 'Jane Roe', scoreThreshold: 80 } })) expectTypeOf(hit).toHaveProperty('score');
  // @ts-expect-error the search needs its query
  idv.searchScreeningPerson.all();
  // @ts-expect-error not a list operation
  idv.listUsers.all();
});
