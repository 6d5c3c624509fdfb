// A transaction of a group commit that sends a read beside its write of a new record (a Promise.all), the
// read reaching the database a few turns of the microtask queue after the write (an async check before
// it, as a handler's validation): the group waits for it before it starts the next transaction
// (group-commit.ts, the turns a parked write waits), so the transaction is answered as alone, its read
// seeing its own write. Started too soon, the next transaction made the late read fail and the
// transaction with it (a 500 for a request that asked nothing unusual).
import { expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { User } from '../state.js';
import { filePools } from './file-pools.test-helper.js';
import { sqlState } from './store.js';

const a = 'ck_test_beside_a_0000';
const user = (id: string): User => ({ id, username: `${id}@example.org`, email: `${id}@example.org`, roles: ['call_center_operator'], emailVerified: false });

const newPool = filePools();

/** What a handler's check before its read costs: a few awaits, none of them on the database. */
async function checked(turns: number) {
  for (let turn = 0; turn < turns; turn++) await null;
}

it('answers a transaction whose read follows its write by a few turns, with the next transaction waiting behind it', async () => {
  const db = await newPool();
  const groups: number[] = [];
  const state = sqlState(db, defaultLimits, { onCommit: (size) => groups.push(size) });
  await state.clear();
  const outcomes = await Promise.allSettled([
    state.transaction(a, async (tx) => {
      const [, count] = await Promise.all([tx.users.put(a, 'usr_1', user('usr_1')), checked(8).then(() => tx.users.count(a))]);
      return count;
    }),
    state.transaction(a, (tx) => tx.users.put(a, 'usr_2', user('usr_2'))),
    state.users.put(a, 'usr_3', user('usr_3')),
  ]);
  expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error).message))).toEqual([1, undefined, undefined]);
  // One group, in the order asked.
  expect(groups).toEqual([3]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_2', 'usr_3']);
}, 60_000);

it('refuses a read sent beside its write only after a timer (the next transaction already started), and keeps none of that transaction', async () => {
  const db = await newPool();
  const state = sqlState(db, defaultLimits);
  await state.clear();
  const outcomes = await Promise.allSettled([
    state.transaction(a, async (tx) => {
      const [, count] = await Promise.all([tx.users.put(a, 'usr_1', user('usr_1')), new Promise((resolve) => setImmediate(resolve)).then(() => tx.users.count(a))]);
      return count;
    }),
    state.transaction(a, (tx) => tx.users.put(a, 'usr_2', user('usr_2'))),
  ]);
  expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error).message))).toEqual([
    'a statement of a transaction whose write is parked, after the next transaction started: await each write',
    undefined,
  ]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_2']);
}, 60_000);
