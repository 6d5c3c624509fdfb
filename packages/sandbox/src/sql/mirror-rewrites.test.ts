// The PGlite mirror (mirror.ts) when a transaction rewrites records: an e-mail that one user gives up and
// another takes in the same transaction is committed (memory took both writes in order), and a record
// deleted and put again is listed after the records added since its delete, as the memory store lists it.
import { afterEach, expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { Group } from '../state.js';
import type { Database } from './database.js';
import { mirroredState } from './mirror.js';
import { heldCommits } from './held-commits.test-helper.js';
import { openPglite } from './pglite.js';
import { user } from '../sample-records.test-helper.js';

const a = 'ck_test_rewrites_a_0000';
const group = (id: string): Group => ({ id, name: id, memberUserIds: [] });

const opened: Database[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

it("commits a transaction that moves a user's e-mail to another user, and keeps both after a reload", async () => {
  const db = await openPglite();
  opened.push(db);
  const state = mirroredState(db, defaultLimits);
  await state.users.put(a, 'usr_1', user('usr_1', 'shared@example.org'));
  await state.transaction(a, async (tx) => {
    await tx.users.put(a, 'usr_1', user('usr_1', 'renamed@example.org'));
    await tx.users.put(a, 'usr_2', user('usr_2', 'shared@example.org'));
  });
  await state.close();
  const reloaded = mirroredState(db, defaultLimits);
  expect((await reloaded.users.list(a)).map((u) => [u.id, u.email])).toEqual([
    ['usr_1', 'renamed@example.org'],
    ['usr_2', 'shared@example.org'],
  ]);
}, 60_000);

it('lists a record deleted and put again after the records added since, in its transaction and in the next one', async () => {
  const db = await openPglite();
  opened.push(db);
  const state = mirroredState(db, defaultLimits);
  await state.groups.put(a, 'grp_1', group('grp_1'));
  await state.groups.put(a, 'grp_2', group('grp_2'));
  await state.close();
  const order = (records: Group[]) => records.map((g) => g.id);
  // The first transaction's commit is held, so that the second reads its writes unconfirmed.
  const { database: slow, hold } = heldCommits(db);
  const gated = mirroredState(slow, defaultLimits);
  await gated.groups.count(a); // loaded before the hold
  const release = hold();
  const first = gated.transaction(a, async (tx) => {
    await tx.groups.delete(a, 'grp_1');
    await tx.groups.put(a, 'grp_3', group('grp_3'));
    await tx.groups.put(a, 'grp_1', group('grp_1'));
    return order(await tx.groups.list(a));
  });
  let read!: () => void;
  const wasRead = new Promise<void>((resolve) => (read = resolve));
  const second = gated.transaction(a, async (tx) => {
    const seen = [order(await tx.groups.list(a)), order(await tx.groups.page(a, 1, 2))];
    read();
    return seen;
  });
  await wasRead;
  release();
  expect(await first).toEqual(['grp_2', 'grp_3', 'grp_1']);
  expect(await second).toEqual([
    ['grp_2', 'grp_3', 'grp_1'],
    ['grp_3', 'grp_1'],
  ]);
  expect(order(await gated.groups.list(a))).toEqual(['grp_2', 'grp_3', 'grp_1']);
}, 60_000);
