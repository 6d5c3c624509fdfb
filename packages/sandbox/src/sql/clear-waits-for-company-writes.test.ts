// Clearing one company's records (store.ts `clear(company)`, the console's reset) on PostgreSQL takes the
// company's lock: a write of the company in progress in another transaction (here one held open after its
// put) is waited for and cleared with the rest, not left behind by a clear that ran beside it.
import { expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import { user } from '../sample-records.test-helper.js';
import { filePools } from './file-pools.test-helper.js';
import { sqlState } from './store.js';

const a = 'ck_test_clear_waits_0000';
const newPool = filePools();

it("clears a company's record whose write was in progress when the clear began", async () => {
  const db = await newPool();
  const state = sqlState(db, defaultLimits);
  await state.clear();
  await state.users.put(a, 'usr_0', user('usr_0', 'zero@example.org'));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let written!: () => void;
  const wrote = new Promise<void>((resolve) => (written = resolve));
  const writing = state.transaction(a, async (tx) => {
    await tx.users.put(a, 'usr_1', user('usr_1', 'one@example.org'));
    written();
    await held;
  });
  await wrote;
  let cleared = false;
  const clearing = state.clear(a).then(() => void (cleared = true));
  const observer = await newPool();
  // The clear waits: for the company's lock (without it, for the rows the write holds, and it then
  // deletes only what it saw).
  await expect
    .poll(async () => cleared || (await observer.query<{ n: number }>(`select count(*)::integer as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))[0]!.n > 0, { timeout: 10_000 })
    .toBe(true);
  release();
  await Promise.all([writing, clearing]);
  expect(await state.users.list(a)).toEqual([]);
  expect(await state.users.count(a)).toBe(0);
}, 60_000);
