// The group commit on a PostgreSQL database that offers only `transaction` (no
// `transactionWithSavepoints`, which a wrapper of the Database interface may leave out: it is optional):
// its transactions have no COMMIT to send ahead, so a group of plain puts goes through its statement of
// several and the ordinary COMMIT, and every put is stored and answered.
import { expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import { Duplicate } from '../store.js';
import { user } from '../sample-records.test-helper.js';
import type { Database } from './database.js';
import { filePools } from './file-pools.test-helper.js';
import { sqlState } from './store.js';

const a = 'ck_test_transaction_only_0000';
const newPool = filePools();

async function open() {
  const db = await newPool();
  const only: Database = { kind: db.kind, query: (text, params) => db.query(text, params), transaction: (work) => db.transaction(work), close: () => db.close() };
  const groups: number[] = [];
  const state = sqlState(only, defaultLimits, { onCommit: (size) => groups.push(size) });
  await state.clear();
  return { state, groups };
}

it('stores and answers a group of puts sent at once on a database without savepoint transactions', async () => {
  const { state, groups } = await open();
  const ids = ['usr_1', 'usr_2', 'usr_3', 'usr_4'];
  expect(await Promise.all(ids.map((id) => state.users.put(a, id, user(id, `${id}@example.org`))))).toEqual([undefined, undefined, undefined, undefined]);
  expect(groups).toEqual([4]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(ids);
  expect(await state.users.count(a)).toBe(4);
}, 60_000);

it('answers a taken key there as one by one would', async () => {
  const { state } = await open();
  await state.users.put(a, 'usr_taken', user('usr_taken', 'taken@example.org'));
  const outcomes = await Promise.allSettled([state.users.put(a, 'usr_1', user('usr_1', 'one@example.org')), state.users.put(a, 'usr_2', user('usr_2', 'taken@example.org'))]);
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
  expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(Duplicate);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_taken', 'usr_1']);
}, 60_000);
