// The SQL store on PostgreSQL, where several instances share one database and each instance groups a
// company's writes (store.ts with group-commit.ts): a company's check-then-write transactions are
// serialised across instances, not only within one; and writes of one company sent at once, to two kinds
// of record, with one ID twice or one unique key twice, each end as they would one at a time.
import { expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { Group } from '../state.js';
import { Duplicate } from '../store.js';
import { filePools } from './file-pools.test-helper.js';
import { sqlState } from './store.js';
import { blk, user } from '../sample-records.test-helper.js';

const a = 'ck_test_instances_a_0000';
const pool = filePools();
const group = (id: string): Group => ({ id, name: id, memberUserIds: [] }) as unknown as Group;

it("serialises a company's check-then-write transactions across two instances on one database", async () => {
  const first = sqlState(await pool(), defaultLimits);
  const second = sqlState(await pool(), defaultLimits);
  await first.clear(a);
  const attempt = (state: typeof first, i: number) =>
    state.transaction(a, async (tx) => {
      // A rule no unique index holds: the company's first group only.
      if ((await tx.groups.count(a)) > 0) return 'exists';
      // Time for the other instance's transaction to reach its check, were they not serialised.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.groups.put(a, `grp_${i}`, group(`grp_${i}`));
      return 'added';
    });
  const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => attempt(i % 2 ? first : second, i)));
  expect(outcomes.filter((o) => o === 'added')).toHaveLength(1);
  expect((await second.groups.list(a)).length).toBe(1);
}, 60_000);

it('stores writes of one company sent at once each in its own kind, one ID twice as the last, one unique key once', async () => {
  const state = sqlState(await pool(), defaultLimits);
  await state.clear(a);
  const outcomes = await Promise.allSettled([
    state.users.put(a, 'usr_1', user('usr_1', 'one@example.org')),
    state.blacklist.put(a, 'blk_1', blk('blk_1', 'D-1')),
    state.users.put(a, 'usr_2', user('usr_2', 'first@example.org')),
    state.users.put(a, 'usr_2', user('usr_2', 'second@example.org')),
    state.users.put(a, 'usr_3', user('usr_3', 'same@example.org')),
    state.users.put(a, 'usr_4', user('usr_4', 'same@example.org')),
  ]);
  expect(outcomes.map((o) => (o.status === 'rejected' ? o.reason : o.status))).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', new Duplicate('email')]);
  expect((await state.users.list(a)).map((u) => [u.id, u.email])).toEqual([
    ['usr_1', 'one@example.org'],
    ['usr_2', 'second@example.org'],
    ['usr_3', 'same@example.org'],
  ]);
  expect(await state.blacklist.list(a)).toEqual([blk('blk_1', 'D-1')]);
  expect(await state.users.get(a, 'blk_1')).toBeUndefined();
  expect([await state.users.count(a), await state.blacklist.count(a)]).toEqual([3, 1]);
}, 60_000);

it('keeps each record of writes sent at once to two kinds of record in its own kind', async () => {
  const state = sqlState(await pool(), defaultLimits);
  await state.clear(a);
  // The first write runs alone; the ones sent with it wait and go together.
  await Promise.all([
    state.users.put(a, 'usr_m1', user('usr_m1', 'm1@example.org')),
    state.blacklist.put(a, 'blk_m1', blk('blk_m1', 'M-1')),
    state.users.put(a, 'usr_m2', user('usr_m2', 'm2@example.org')),
    state.blacklist.put(a, 'blk_m2', blk('blk_m2', 'M-2')),
    state.users.put(a, 'usr_m3', user('usr_m3', 'm3@example.org')),
  ]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_m1', 'usr_m2', 'usr_m3']);
  expect((await state.blacklist.list(a)).map((r) => r.id)).toEqual(['blk_m1', 'blk_m2']);
  expect([await state.users.count(a), await state.blacklist.count(a)]).toEqual([3, 2]);
}, 60_000);
