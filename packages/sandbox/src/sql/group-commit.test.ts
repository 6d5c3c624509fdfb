// The group commit of a company's transactions on PostgreSQL (group-commit.ts, through the SQL store):
// a refused transaction inside a group rolls back alone, the order per company holds, and what a group
// acknowledged is in the database for a new connection pool (a restart of the instance).
import { expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { Session, User } from '../state.js';
import { Duplicate } from '../store.js';
import type { Database } from './database.js';
import { filePools } from './file-pools.test-helper.js';
import { sqlState } from './store.js';

const a = 'ck_test_group_a_0000';
const b = 'ck_test_group_b_0000';
const user = (id: string, email: string, firstName?: string): User => ({ id, username: email, email, roles: ['call_center_operator'], emailVerified: false, ...(firstName ? { firstName } : {}) });

const newPool = filePools();
/** A new pool on the file's database, emptied unless `keep`. */
async function open({ keep = false } = {}) {
  const db = await newPool();
  const groups: number[] = [];
  const state = sqlState(db, defaultLimits, { onCommit: (size) => groups.push(size) });
  if (!keep) await state.clear();
  return { db, state, groups };
}

it('rolls back a refused transaction of a group alone: the others of its group are stored, each refusal answered with its own error', async () => {
  const { state, groups } = await open();
  await state.users.put(a, 'usr_taken', user('usr_taken', 'taken@example.org'));
  groups.length = 0;
  const outcomes = await Promise.allSettled([
    state.transaction(a, (tx) => tx.users.put(a, 'usr_1', user('usr_1', 'one@example.org'))),
    // Writes, then refuses (a handler's ApiError after its writes).
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_2', user('usr_2', 'two@example.org'));
      throw new Error('refused after writing');
    }),
    state.transaction(a, (tx) => tx.users.put(a, 'usr_3', user('usr_3', 'taken@example.org'))),
    // A statement PostgreSQL refuses (a size beyond its integer column) leaves the transaction aborted
    // until its savepoint is rolled back: the next ones still run.
    state.transaction(a, async (tx) => {
      await tx.users.put(a, 'usr_4', user('usr_4', 'four@example.org'));
      await tx.sessions.put(a, 'sess_big', { id: 'sess_big', storedBytes: 2 ** 40 } as unknown as Session);
    }),
    state.transaction(a, (tx) => tx.users.put(a, 'usr_5', user('usr_5', 'five@example.org'))),
  ]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled']);
  expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'refused after writing' });
  expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(Duplicate);
  expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({ code: '22003' });
  // One group: the five shared a database transaction.
  expect(groups).toEqual([5]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_taken', 'usr_1', 'usr_5']);
  expect(await state.users.count(a)).toBe(3);
  expect(await state.sessions.count(a)).toBe(0);
  // The refused ones' keys are free.
  await state.users.put(a, 'usr_6', user('usr_6', 'two@example.org'));
  await state.users.put(a, 'usr_7', user('usr_7', 'four@example.org'));
}, 60_000);

it("keeps a company's order: each transaction of a group sees the ones before it, in the order they were asked for", async () => {
  const { state, groups } = await open();
  // Each reads the count and writes the next number: serialised, they write 0 to 39 in the order asked.
  const written = await Promise.all(
    Array.from({ length: 40 }, (_, call) =>
      state.transaction(a, async (tx) => {
        const n = await tx.users.count(a);
        await tx.users.put(a, `usr_${n}`, user(`usr_${n}`, `${n}@example.org`, `call ${call}`));
        return n;
      }),
    ),
  );
  expect(written).toEqual(Array.from({ length: 40 }, (_, i) => i));
  expect((await state.users.list(a)).map((u) => u.firstName)).toEqual(Array.from({ length: 40 }, (_, i) => `call ${i}`));
  expect(groups.length).toBeLessThan(40);
  expect(groups.reduce((sum, size) => sum + size, 0)).toBe(40);
}, 60_000);

it("runs two companies' groups side by side, and holds at most 50 transactions in a group", async () => {
  const { state, groups } = await open();
  await Promise.all(
    Array.from({ length: 120 }, (_, i) => {
      const company = i % 2 ? b : a;
      return state.transaction(company, (tx) => tx.users.put(company, `usr_${i}`, user(`usr_${i}`, `${i}@example.org`)));
    }),
  );
  expect(await state.users.count(a)).toBe(60);
  expect(await state.users.count(b)).toBe(60);
  expect(Math.max(...groups)).toBeLessThanOrEqual(50);
}, 60_000);

it('keeps what a group acknowledged for a new pool on the database (an instance started again)', async () => {
  const first = await open();
  const ids = Array.from({ length: 60 }, (_, i) => `usr_${i}`);
  await Promise.all(ids.map((id) => first.state.users.put(a, id, user(id, `${id}@example.org`))));
  expect(first.groups.length).toBeLessThan(60);
  await first.db.close();
  const second = await open({ keep: true });
  expect((await second.state.users.list(a)).map((u) => u.id)).toEqual(ids);
}, 60_000);

it('answers the transactions of a group only once its commit is done: before it, none is answered and none is seen by another pool', async () => {
  const { db } = await open();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reachedCommit!: () => void;
  const atCommit = new Promise<void>((resolve) => (reachedCommit = resolve));
  // The same database, its group transaction held between its last statement and its COMMIT.
  const holding: Database = {
    ...db,
    transactionWithSavepoints: (work) =>
      db.transactionWithSavepoints!(async (tx) => {
        const result = await work(tx);
        reachedCommit();
        await held;
        return result;
      }),
  };
  const state = sqlState(holding, defaultLimits);
  const answered: string[] = [];
  const writes = ['usr_1', 'usr_2', 'usr_3'].map((id) => state.transaction(a, (tx) => tx.users.put(a, id, user(id, `${id}@example.org`))).then(() => answered.push(id)));
  await atCommit;
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(answered).toEqual([]);
  const other = await open({ keep: true });
  expect(await other.state.users.count(a)).toBe(0);
  release();
  await Promise.all(writes);
  expect(answered).toEqual(['usr_1', 'usr_2', 'usr_3']);
  expect(await other.state.users.count(a)).toBe(3);
}, 60_000);

it("answers a group only once the write-ahead log is on disk, after the company's groups before it, and runs the next group meanwhile", async () => {
  const { db } = await open();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let flushes = 0;
  // The same database, the first group's flush held back (a slow disk).
  const state = sqlState(
    {
      ...db,
      transactionWithSavepoints: (work, options) =>
        db.transactionWithSavepoints!(work, {
          flushLater: (flushed) => options!.flushLater!(++flushes === 1 ? held.then(() => flushed) : flushed),
        }),
    },
    defaultLimits,
  );
  const answered: string[] = [];
  const put = (id: string) => state.transaction(a, (tx) => tx.users.put(a, id, user(id, `${id}@example.org`))).then(() => answered.push(id));
  const first = put('usr_1');
  await expect.poll(() => flushes).toBe(1);
  const other = await open({ keep: true });
  // Committed (the company's lock is free), not yet acknowledged.
  expect(await other.state.users.count(a)).toBe(1);
  const second = put('usr_2');
  await expect.poll(() => flushes).toBe(2);
  expect(await other.state.users.count(a)).toBe(2);
  // The second group's flush is done, but its answer waits for the first's.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(answered).toEqual([]);
  release();
  await Promise.all([first, second]);
  expect(answered).toEqual(['usr_1', 'usr_2']);
}, 60_000);

it('keeps the writes before a transaction refused ahead of any statement (a handler’s refusal before it reads), in one group', async () => {
  const { state, groups } = await open();
  const outcomes = await Promise.allSettled([
    // Reads, then writes: its write runs at once, in the group's savepoint.
    state.transaction(a, async (tx) => {
      await tx.users.count(a);
      await tx.users.put(a, 'usr_1', user('usr_1', 'one@example.org'));
    }),
    state.transaction(a, async () => {
      throw new Error('refused before reading');
    }),
    state.transaction(a, (tx) => tx.users.put(a, 'usr_2', user('usr_2', 'two@example.org'))),
    state.transaction(a, async () => {
      throw new Error('refused before reading');
    }),
    state.transaction(a, (tx) => tx.users.put(a, 'usr_3', user('usr_3', 'three@example.org'))),
  ]);
  expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'stored' : (outcome.reason as Error).message))).toEqual(['stored', 'refused before reading', 'stored', 'refused before reading', 'stored']);
  expect(groups).toEqual([5]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_2', 'usr_3']);
});
