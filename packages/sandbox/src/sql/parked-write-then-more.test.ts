// Transactions of one company whose writes of new records wait to go in one statement (group-commit.ts
// `park`, store.ts `putMany`) and that then do more than end: the first of the run throws, one reads and
// then throws, one writes its own record again, one is a transaction beside plain puts. Each answer and
// each stored row is what the same transactions one after another give.
import { expect, it } from 'vitest';
import type { User } from '../state.js';
import { user } from '../sample-records.test-helper.js';
import { emptyStoreCountingGroups, filePools } from './file-pools.test-helper.js';

const a = 'ck_test_then_more_a_0000';
// The shared sample user, with a first name that tells two versions of one record apart.
const person = (id: string, firstName = id): User => ({ ...user(id, `${id}@example.org`), firstName });

const newPool = filePools();
const open = () => emptyStoreCountingGroups(newPool);
const outcome = (settled: PromiseSettledResult<unknown>) => (settled.status === 'fulfilled' ? settled.value : `error: ${(settled.reason as Error).message}`);
const put = (state: Awaited<ReturnType<typeof open>>['state'], id: string) => state.transaction(a, (tx) => tx.users.put(a, id, person(id)));

it('stores the writes after a first transaction that throws after its write, and not its own', async () => {
  const { state, groups } = await open();
  const outcomes = await Promise.allSettled([
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_1', person('usr_1'));
      throw new Error('refused after writing');
    }),
    put(state, 'usr_2'),
    put(state, 'usr_3'),
    put(state, 'usr_4'),
  ]);
  expect(outcomes.map(outcome)).toEqual(['error: refused after writing', undefined, undefined, undefined]);
  expect(groups).toEqual([4]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_2', 'usr_3', 'usr_4']);
  expect(await state.users.count(a)).toBe(3);
}, 60_000);

it('undoes the write and the reads of a transaction that goes on after its write and then throws', async () => {
  const { state, groups } = await open();
  const outcomes = await Promise.allSettled([
    put(state, 'usr_1'),
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_2', person('usr_2'));
      await tx.users.put(a, 'usr_2b', person('usr_2b'));
      expect(await tx.users.count(a)).toBe(3);
      throw new Error('refused after reading');
    }),
    put(state, 'usr_3'),
  ]);
  expect(outcomes.map(outcome)).toEqual([undefined, 'error: refused after reading', undefined]);
  expect(groups).toEqual([3]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_3']);
  expect(await state.users.count(a)).toBe(2);
}, 60_000);

it('keeps the last version of a record a transaction wrote again after its parked write', async () => {
  const { state } = await open();
  const outcomes = await Promise.allSettled([
    put(state, 'usr_1'),
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_2', person('usr_2', 'first'));
      await tx.users.put(a, 'usr_2', person('usr_2', 'second'));
      return (await tx.users.get(a, 'usr_2'))?.firstName;
    }),
    put(state, 'usr_3'),
  ]);
  expect(outcomes.map(outcome)).toEqual([undefined, 'second', undefined]);
  expect((await state.users.list(a)).map((u) => [u.id, u.firstName])).toEqual([
    ['usr_1', 'usr_1'],
    ['usr_2', 'second'],
    ['usr_3', 'usr_3'],
  ]);
}, 60_000);

it('answers a transaction that reads after its write as alone when its write waited beside plain puts', async () => {
  const { state } = await open();
  const outcomes = await Promise.allSettled([
    state.users.put(a, 'usr_1', person('usr_1')),
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_2', person('usr_2'));
      return tx.users.count(a);
    }),
    state.users.put(a, 'usr_3', person('usr_3')),
  ]);
  expect(outcomes.map(outcome)).toEqual([undefined, 2, undefined]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_2', 'usr_3']);
}, 60_000);

it('stores nothing of a transaction that throws after a write that waited beside plain puts', async () => {
  const { state } = await open();
  const outcomes = await Promise.allSettled([
    state.users.put(a, 'usr_1', person('usr_1')),
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_2', person('usr_2'));
      throw new Error('refused after writing');
    }),
  ]);
  expect(outcomes.map(outcome)).toEqual([undefined, 'error: refused after writing']);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1']);
  expect(await state.users.count(a)).toBe(1);
}, 60_000);
