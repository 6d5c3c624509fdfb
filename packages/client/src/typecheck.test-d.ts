// Compile-time expectations of the generated client types; `vitest --typecheck` checks them.
import { expectTypeOf, test } from 'vitest';
import { createClient, createLegacyClient, IdvApiError } from './index.js';

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
