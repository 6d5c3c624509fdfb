// Pages of one company asked for in one turn are read by one statement (store.ts `page`): each caller gets
// the page and total it would get alone, and a page is never answered by a query sent before it was asked
// for, so it reads every write answered before it.
import { expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { BlacklistRecord, User } from '../state.js';
import type { Database } from './database.js';
import { filePools } from './file-pools.test-helper.js';
import { migrate } from './migrations.js';
import { openPglite } from './pglite.js';
import { sqlState } from './store.js';

const a = 'ck_test_page_batch_a_0000';
const b = 'ck_test_page_batch_b_0000';
const c = 'ck_test_page_batch_c_0000';
const d = 'ck_test_page_batch_d_0000';
const record = (id: string): BlacklistRecord => ({ id, reason: 'Test', documentNumber: `D-${id}` }) as BlacklistRecord;
const pool = filePools();

/** A pool whose page statements are counted, and can be held back before they are sent. */
function countingPages(db: Database) {
  const seen = { pages: 0, hold: undefined as Promise<void> | undefined };
  const database: Database = {
    ...db,
    query: async <Row,>(text: string, params?: readonly unknown[]) => {
      if (!(/ offset /.test(text) && /blacklist_records/.test(text))) return db.query<Row>(text, params);
      seen.pages++;
      const answer = db.query<Row>(text, params);
      // Sent now (its snapshot taken), answered once the test lets it go.
      await seen.hold;
      return answer;
    },
  };
  return { database, seen };
}

it('reads the pages of one company asked for in one turn in one statement, each as it reads alone', async () => {
  const { database, seen } = countingPages(await pool());
  const state = sqlState(database, defaultLimits);
  for (let i = 1; i <= 7; i++) await state.blacklist.put(a, `blk_a${i}`, record(`a${i}`));
  await state.blacklist.put(b, 'blk_b1', record('b1'));
  const alone = [await state.blacklist.page(a, 0, 3), await state.blacklist.page(a, 2, 10), await state.blacklist.page(a, 9, 5), await state.blacklist.page(a, 0, 3)];
  seen.pages = 0;
  const [totalA, p1, p2, p3, p4, totalB, pb] = await Promise.all([
    state.blacklist.count(a),
    state.blacklist.page(a, 0, 3),
    state.blacklist.page(a, 2, 10),
    state.blacklist.page(a, 9, 5),
    state.blacklist.page(a, 0, 3),
    state.blacklist.count(b),
    state.blacklist.page(b, 0, 10),
  ]);
  expect([p1, p2, p3, p4]).toEqual(alone);
  expect(p2!.map((r) => r.id)).toEqual(['a3', 'a4', 'a5', 'a6', 'a7']);
  expect(p3).toEqual([]);
  // Two callers of one page: two arrays (each may change its own), the same records.
  expect(p4).not.toBe(p1);
  expect(p4![0]).toBe(p1![0]);
  expect([totalA, totalB]).toEqual([7, 1]);
  expect(pb).toEqual([record('b1')]);
  // One statement for company a's four pages, one for b's.
  expect(seen.pages).toBe(2);
});

it('gives each caller of a page of users its own objects', async () => {
  const state = sqlState(await pool(), defaultLimits);
  const user: User = { id: 'usr_1', username: 'u@example.org', email: 'u@example.org', roles: [], emailVerified: false };
  await state.users.put(a, 'usr_1', user);
  const [[one], [two]] = await Promise.all([state.users.page(a, 0, 10), state.users.page(a, 0, 10)]);
  expect(one).toEqual(user);
  expect(two).not.toBe(one);
});

it('reads a write answered while an earlier page query ran: the page goes in a query of its own', async () => {
  const { database, seen } = countingPages(await pool());
  const state = sqlState(database, defaultLimits);
  const other = sqlState(await pool(), defaultLimits);
  await state.blacklist.put(c, 'blk_w1', record('w1'));
  let release!: () => void;
  seen.hold = new Promise<void>((resolve) => (release = resolve));
  seen.pages = 0;
  const first = state.blacklist.page(c, 0, 10);
  while (seen.pages === 0) await new Promise((resolve) => setImmediate(resolve));
  // The first query is sent (its snapshot is before this write); the write is answered, then a page asked.
  await other.blacklist.put(c, 'blk_w2', record('w2'));
  const second = state.blacklist.page(c, 0, 10);
  const secondTotal = state.blacklist.count(c);
  await new Promise((resolve) => setImmediate(resolve));
  seen.hold = undefined;
  release();
  expect((await first).map((r) => r.id)).toEqual(['w1']);
  expect((await second).map((r) => r.id)).toEqual(['w1', 'w2']);
  expect(await secondTotal).toBe(2);
  expect(seen.pages).toBe(2);
});

it('fails every page of a statement that fails, and their totals; the next page reads again', async () => {
  const db = await pool();
  let refuse = true;
  const failing: Database = { ...db, query: (text, params) => (refuse && / offset /.test(text) ? Promise.reject(new Error('refused')) : db.query(text, params)) };
  const state = sqlState(failing, defaultLimits);
  await state.blacklist.put(d, 'blk_d1', record('d1'));
  const results = await Promise.allSettled([state.blacklist.count(d), state.blacklist.page(d, 0, 10), state.blacklist.page(d, 5, 10)]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
  refuse = false;
  expect(await Promise.all([state.blacklist.count(d), state.blacklist.page(d, 0, 10)])).toEqual([1, [record('d1')]]);
});

it('reads pages asked for together the same way on PGlite (the same statement)', async () => {
  const db = await openPglite();
  try {
    await migrate(db);
    const state = sqlState(db, defaultLimits);
    for (let i = 1; i <= 4; i++) await state.blacklist.put(a, `blk_p${i}`, record(`p${i}`));
    const [total, first, rest, none] = await Promise.all([state.blacklist.count(a), state.blacklist.page(a, 0, 2), state.blacklist.page(a, 2, 10), state.blacklist.page(a, 8, 1)]);
    expect([total, first!.map((r) => r.id), rest!.map((r) => r.id), none]).toEqual([4, ['p1', 'p2'], ['p3', 'p4'], []]);
  } finally {
    await db.close();
  }
}, 60_000);
