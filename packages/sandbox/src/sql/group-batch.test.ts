// A group commit's writes of new records in one statement (group-commit.ts `park`, store.ts `putMany`):
// every answer and every stored row is what the same transactions one after another would give, when
// all pass, when one is refused (a taken key, a key twice in the group, the company's cap), when one
// reads after its write, and when one throws after it.
import { expect, it } from 'vitest';
import { StoreFull } from '../errors.js';
import { defaultLimits, type Limits } from '../limits.js';
import type { Session, User } from '../state.js';
import { Duplicate } from '../store.js';
import type { Database } from './database.js';
import { filePools } from './file-pools.test-helper.js';
import { sqlState } from './store.js';

const a = 'ck_test_batch_a_0000';
const user = (id: string, email = `${id}@example.org`): User => ({ id, username: email, email, roles: ['call_center_operator'], emailVerified: false });

const newPool = filePools();
/** A new pool on the file's database, emptied, whose group transactions' statements are kept in `statements`. */
async function open(limits: Limits = defaultLimits) {
  const db = await newPool();
  const statements: string[] = [];
  const groups: number[] = [];
  const counting: Database = {
    ...db,
    transactionWithSavepoints: (work, options) => db.transactionWithSavepoints!((tx) => work({ ...tx, query: (text, params) => (statements.push(text), tx.query(text, params)) }), options),
  };
  const state = sqlState(counting, limits, { onCommit: (size) => groups.push(size) });
  await state.clear();
  return { state, statements, groups };
}
const inserts = (statements: string[]) => statements.filter((text) => /insert into users /.test(text)).length;
const put = (state: Awaited<ReturnType<typeof open>>['state'], id: string, email?: string) => state.transaction(a, (tx) => tx.users.put(a, id, user(id, email)));

it("writes a group's new records in one statement, in the order asked", async () => {
  const { state, statements, groups } = await open();
  const ids = ['usr_1', 'usr_2', 'usr_3', 'usr_4', 'usr_5'];
  await Promise.all(ids.map((id) => put(state, id)));
  expect(groups).toEqual([5]);
  expect(inserts(statements)).toBe(1);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(ids);
  expect(await state.users.count(a)).toBe(5);
}, 60_000);

it('refuses a taken key, or a key twice in the group, as one by one would: the others are stored', async () => {
  const { state, statements } = await open();
  await put(state, 'usr_taken', 'taken@example.org');
  statements.length = 0;
  const outcomes = await Promise.allSettled([put(state, 'usr_1'), put(state, 'usr_2', 'TAKEN@example.org'), put(state, 'usr_3', 'twice@example.org'), put(state, 'usr_4', 'twice@example.org'), put(state, 'usr_5')]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
  expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(Duplicate);
  expect((outcomes[3] as PromiseRejectedResult).reason).toBeInstanceOf(Duplicate);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_taken', 'usr_1', 'usr_3', 'usr_5']);
  expect(await state.users.count(a)).toBe(4);
}, 60_000);

it("stops at the company's cap where one by one would", async () => {
  const { state } = await open({ ...defaultLimits, maxRecordsPerCompany: 3 });
  await put(state, 'usr_0');
  const outcomes = await Promise.allSettled(['usr_1', 'usr_2', 'usr_3', 'usr_4'].map((id) => put(state, id)));
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
  expect((outcomes[2] as PromiseRejectedResult).reason).toBe(StoreFull.instance);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_0', 'usr_1', 'usr_2']);
}, 60_000);

it('lets a transaction that reads after its write see only the writes before it', async () => {
  const { state } = await open();
  const counted = await Promise.all([
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_1', user('usr_1'));
      return tx.users.count(a);
    }),
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_2', user('usr_2'));
      return tx.users.count(a);
    }),
    put(state, 'usr_3').then(() => 'put'),
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_4', user('usr_4'));
      await tx.users.put(a, 'usr_5', user('usr_5'));
      return tx.users.count(a);
    }),
  ]);
  expect(counted).toEqual([1, 2, 'put', 5]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_2', 'usr_3', 'usr_4', 'usr_5']);
}, 60_000);

it('undoes the write of a transaction that throws after it, and keeps the others of its group', async () => {
  const { state, groups } = await open();
  const outcomes = await Promise.allSettled([
    put(state, 'usr_1'),
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_2', user('usr_2', 'again@example.org'));
      throw new Error('refused after writing');
    }),
    put(state, 'usr_3'),
    put(state, 'usr_4'),
  ]);
  expect(groups).toEqual([4]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'refused after writing' });
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_3', 'usr_4']);
  expect(await state.users.count(a)).toBe(3);
  // Its key is free again.
  await put(state, 'usr_5', 'again@example.org');
}, 60_000);

it('runs the statements a transaction sends at once, its write among them, without waiting for the next transactions', async () => {
  const { state } = await open();
  const results = await Promise.all([
    put(state, 'usr_1'),
    state.transaction(a, async (tx) => {
      const [, count] = await Promise.all([tx.users.put(a, 'usr_2', user('usr_2')), tx.users.count(a)]);
      return count;
    }),
    state.transaction(a, async (tx) => {
      const [found, count] = await Promise.all([tx.users.find(a, 'email', 'usr_1@example.org'), tx.users.count(a)]);
      await tx.users.put(a, 'usr_3', user('usr_3'));
      return [found.length, count];
    }),
    put(state, 'usr_4'),
  ]);
  expect(results[1]).toBeGreaterThanOrEqual(1);
  expect(results[2]).toEqual([1, 2]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_2', 'usr_3', 'usr_4']);
}, 60_000);

it('answers each alone when PostgreSQL refuses the statement of several (a size beyond its integer column)', async () => {
  const { state } = await open();
  const session = (id: string, storedBytes = 0) => ({ id, storedBytes }) as unknown as Session;
  const outcomes = await Promise.allSettled(
    [session('sess_1'), session('sess_big', 2 ** 40), session('sess_3')].map((s) => state.transaction(a, (tx) => tx.sessions.put(a, s.id, s))),
  );
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22003' });
  expect((await state.sessions.list(a)).map((s) => s.id)).toEqual(['sess_1', 'sess_3']);
}, 60_000);
