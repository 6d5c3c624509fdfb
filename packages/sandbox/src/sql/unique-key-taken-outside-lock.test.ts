// A unique key taken by a writer that does not take the store's company lock (another tool on the same
// database, an older instance), committed while a put's statement waits on it: the put's write then
// meets the unique index, not its own check, and is answered as the duplicate it is (store.ts `put`'s
// catch), not with the database's error (a 500 for an ordinary refusal).
import { expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import { user } from '../sample-records.test-helper.js';
import { Duplicate } from '../store.js';
import { filePools } from './file-pools.test-helper.js';
import { sqlState } from './store.js';

const a = 'ck_test_outside_lock_0000';
const newPool = filePools();

it("answers a put whose e-mail another writer took outside the company's lock, while the put waited, as a duplicate e-mail", async () => {
  const db = await newPool();
  const state = sqlState(db, defaultLimits);
  await state.clear();
  const other = await newPool();
  let commit!: () => void;
  const committing = new Promise<void>((resolve) => (commit = resolve));
  // The other writer's key row, held uncommitted until the put waits on it.
  let taken!: () => void;
  const held = new Promise<void>((resolve) => (taken = resolve));
  const writer = other.transaction(async (tx) => {
    await tx.query(`insert into users_keys (company, name, key, id) values ($1, 'email', 'race@example.org', 'usr_other')`, [a]);
    taken();
    await committing;
  });
  await held;
  // In a transaction: the put's own statement (its check, then its write), not a statement of several.
  const put = state.transaction(a, (tx) => tx.users.put(a, 'usr_1', user('usr_1', 'race@example.org')));
  put.catch(() => {});
  await expect
    .poll(async () => (await other.query<{ waiting: number }>(`select count(*)::integer as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))[0]!.waiting, { timeout: 10_000 })
    .toBe(1);
  commit();
  await writer;
  const refusal = await put.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refusal).toBeInstanceOf(Duplicate);
  expect((refusal as Duplicate).message).toBe('a record with the same email exists');
  expect(await state.users.list(a)).toEqual([]);
  expect(await state.users.count(a)).toBe(0);
}, 60_000);
