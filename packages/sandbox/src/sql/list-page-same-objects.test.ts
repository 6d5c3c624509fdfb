// A page of blacklist records read again gives the same objects for the rows whose stored text did not
// change (store.ts `page`), so the list handler reuses the page it made from them; a change made through
// another instance is still read at once, and other kinds of record, which handlers change and put back,
// are new objects on every read.
import { afterAll, expect, inject, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { BlacklistRecord, User } from '../state.js';
import type { Database } from './database.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';
import { sqlState } from './store.js';

const a = 'ck_test_page_a_0000';
const record = (id: string, documentNumber: string): BlacklistRecord => ({ id, reason: 'Test', documentNumber }) as BlacklistRecord;

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

async function twoInstances() {
  const url = await createTestDatabase(inject('postgresUrl'));
  const one = await openPostgres(url);
  const two = await openPostgres(url);
  opened.push(one, two);
  return { first: sqlState(one, defaultLimits), second: sqlState(two, defaultLimits) };
}

it('gives the same objects for unchanged rows of a page, and reads what another instance changed', async () => {
  const { first, second } = await twoInstances();
  for (const [id, document] of [['blk_1', 'D1'], ['blk_2', 'D2'], ['blk_3', 'D3']]) await first.blacklist.put(a, id!, record(id!, document!));
  const before = await first.blacklist.page(a, 0, 10);
  expect(before).toEqual([record('blk_1', 'D1'), record('blk_2', 'D2'), record('blk_3', 'D3')]);
  const again = await first.blacklist.page(a, 0, 10);
  expect(again.map((found, at) => found === before[at])).toEqual([true, true, true]);

  // Through the other instance: one record gone, one replaced under its ID, one added.
  await second.blacklist.delete(a, 'blk_1');
  await second.blacklist.put(a, 'blk_3', record('blk_3', 'D3-changed'));
  await second.blacklist.put(a, 'blk_4', record('blk_4', 'D4'));
  const after = await first.blacklist.page(a, 0, 10);
  expect(after).toEqual([record('blk_2', 'D2'), record('blk_3', 'D3-changed'), record('blk_4', 'D4')]);
  expect(after[0]).toBe(before[1]);
  expect(after[1]).not.toBe(before[2]);
});

it('gives new objects on every read of other records, which handlers change and put back', async () => {
  const { first } = await twoInstances();
  const user: User = { id: 'usr_1', username: 'u@example.org', email: 'u@example.org', roles: [], emailVerified: false };
  await first.users.put(a, 'usr_1', user);
  const [read] = await first.users.page(a, 0, 10);
  read!.emailVerified = true;
  const [again] = await first.users.page(a, 0, 10);
  expect(again).not.toBe(read);
  expect(again).toEqual(user);
});
