// One transaction of a PGlite group commit fails on disk (mirror.ts): the other transactions of the group
// are written and answered as if alone, the failed one gets its error, a transaction of its company that
// read its writes fails with it, and memory holds exactly what disk holds.
import { afterEach, expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { Database } from './database.js';
import { mirroredState } from './mirror.js';
import { openPglite } from './pglite.js';
import { user } from '../sample-records.test-helper.js';

const [a, b, c] = ['ck_test_groupfail_a_0000', 'ck_test_groupfail_b_0000', 'ck_test_groupfail_c_0000'];

const opened: Database[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

/** Whether a statement writes usr_bad (in its text or its parameters): the write the disk refuses. */
const bad = (text: string, params?: readonly unknown[]) => text.includes('usr_bad') || JSON.stringify(params ?? []).includes('usr_bad');

it('writes and answers the rest of a group when one of its transactions fails, and fails what built on that one', async () => {
  const db = await openPglite();
  opened.push(db);
  let gate: Promise<void> | undefined;
  const refusing = (on: Database): Database => ({
    ...on,
    query: async (text, params) => {
      if (!params?.length) await gate;
      if (bad(text, params)) throw new Error('disk refused usr_bad (a test)');
      return on.query(text, params);
    },
    transaction: async (work) => (await gate, on.transaction((tx) => work(refusing(tx)))),
  });
  const groups: number[] = [];
  const state = mirroredState(refusing(db), defaultLimits, { onCommit: (size) => groups.push(size) });
  await state.users.put(c, 'usr_c0', user('usr_c0', 'c0@example.org')); // loaded, and usr_c0 on disk

  // The first commit is held: the transactions after it finish meanwhile and go in one group.
  let release!: () => void;
  gate = new Promise((resolve) => (release = resolve));
  const answered: string[] = [];
  const track = (name: string, write: Promise<unknown>) => write.then(() => void answered.push(name), (error: Error) => void answered.push(`${name}: ${error.message}`));
  const writes = [
    track('a0', state.users.put(a, 'usr_a0', user('usr_a0', 'a0@example.org'))),
    track('b1', state.users.put(b, 'usr_b1', user('usr_b1', 'b1@example.org'))),
    track('a-bad', state.users.put(a, 'usr_bad', user('usr_bad', 'bad@example.org'))),
    // Writes nothing, but read a0 and the failed write (both unconfirmed when it ran): fails too.
    track('a-read', state.transaction(a, async (tx) => tx.users.count(a))),
    // Reads the failed write (unconfirmed when it runs): fails with it, though its own write is fine.
    track('a-after', state.transaction(a, async (tx) => {
      expect(await tx.users.get(a, 'usr_bad')).toBeDefined();
      await tx.users.put(a, 'usr_a2', user('usr_a2', 'a2@example.org'));
    })),
    // A change of a record on disk (not a new record: the group is written statement by statement).
    track('c-change', state.users.put(c, 'usr_c0', { ...user('usr_c0', 'c0@example.org'), emailVerified: true })),
    track('c1', state.users.put(c, 'usr_c1', user('usr_c1', 'c1@example.org'))),
  ];
  await new Promise((resolve) => setTimeout(resolve, 20));
  gate = undefined;
  release();
  await Promise.all(writes);
  expect(answered.sort()).toEqual(['a-after: an earlier write of this company failed', 'a-bad: disk refused usr_bad (a test)', 'a-read: an earlier write of this company failed', 'a0', 'b1', 'c-change', 'c1']);
  // Every transaction was committed once or failed: seven answers, four commits counted.
  expect(groups.slice(1).reduce((sum, size) => sum + size, 0)).toBe(4);

  const onDisk = async (company: string) => (await db.query<{ id: string }>('select id from users where company = $1 order by seq', [company])).map((row) => row.id);
  const served = async (company: string) => (await state.users.list(company)).map((u) => u.id);
  for (const company of [a, b, c]) expect(await served(company)).toEqual(await onDisk(company));
  expect(await served(a)).toEqual(['usr_a0']);
  expect(await served(c)).toEqual(['usr_c0', 'usr_c1']);
  expect((await state.users.get(c, 'usr_c0'))!.emailVerified).toBe(true);
  // The company goes on: its next write is committed.
  await state.users.put(a, 'usr_a3', user('usr_a3', 'a3@example.org'));
  expect(await onDisk(a)).toEqual(['usr_a0', 'usr_a3']);
  await state.close();
}, 60_000);
