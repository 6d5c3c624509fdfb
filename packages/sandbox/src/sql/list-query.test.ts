// A listing's total and page asked for at once (list-blacklist-records does) are answered by one query on
// the SQL store (store.ts, `page`): the same answers as asked apart, past the last page and for a company
// with no records too.
import { afterAll, expect, inject, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { User } from '../state.js';
import type { Database } from './database.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';
import { sqlState } from './store.js';

const a = 'ck_test_list_a_0000';
const b = 'ck_test_list_b_0000';
const user = (id: string): User => ({ id, username: id, email: `${id}@example.org`, roles: ['call_center_operator'], emailVerified: false });
let db: Database | undefined;
afterAll(() => db?.close());

it('answers a count and a page asked for together, and each alone, with the same figures', async () => {
  db = await openPostgres(await createTestDatabase(inject('postgresUrl')));
  const opened = db;
  let queries = 0;
  const state = sqlState({ ...opened, query: (text, params) => (queries++, opened.query(text, params)) }, defaultLimits);
  await state.clear();
  for (let i = 0; i < 5; i++) await state.users.put(a, `usr_${i}`, user(`usr_${i}`));
  await state.users.put(b, 'usr_b', user('usr_b'));
  const ids = (records: User[]) => records.map((u) => u.id);

  queries = 0;
  const [total, page] = await Promise.all([state.users.count(a), state.users.page(a, 1, 2)]);
  expect([total, ids(page)]).toEqual([5, ['usr_1', 'usr_2']]);
  expect(queries).toBe(1);
  // Past the last record: an empty page, still the total.
  expect(await Promise.all([state.users.count(a), state.users.page(a, 10, 2)])).toEqual([5, []]);
  // Two counts and a page at once, of two companies: each its own.
  const [countA, countB, again, pageB] = await Promise.all([state.users.count(a), state.users.count(b), state.users.count(a), state.users.page(b, 0, 10)]);
  expect([countA, countB, again, ids(pageB)]).toEqual([5, 1, 5, ['usr_b']]);
  // Alone, and for a company with nothing.
  expect(await state.users.count(a)).toBe(5);
  expect(ids(await state.users.page(a, 3, 10))).toEqual(['usr_3', 'usr_4']);
  expect(await Promise.all([state.users.count('ck_test_list_none_0000'), state.users.page('ck_test_list_none_0000', 0, 10)])).toEqual([0, []]);
  // Inside a transaction, the same.
  expect(await state.transaction(a, async (tx) => Promise.all([tx.users.count(a), tx.users.page(a, 4, 5)]).then(([n, p]) => [n, ids(p)]))).toEqual([5, ['usr_4']]);
}, 60_000);
