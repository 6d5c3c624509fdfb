// A PGlite data directory written under higher limits and opened again under lower ones (a restart with a
// smaller --max-records or --max-bytes): it opens, the records past the new limits stay on disk but are
// not served (a warning names each), the others are served, and raising the limits again serves them all.
import { afterEach, expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { Database } from './database.js';
import { mirroredState } from './mirror.js';
import { openPglite } from './pglite.js';
import { user } from '../sample-records.test-helper.js';

const a = 'ck_test_lowered_a_0000';
const b = 'ck_test_lowered_b_0000';

const opened: Database[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

/** The warnings the process emits while `work` runs. */
async function warningsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (warning: Error) => seen.push(warning.message);
  process.on('warning', listener);
  try {
    await work();
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

it('opens a directory holding more records than the limits now allow: the rest kept on disk, not served, each named in a warning', async () => {
  // Each mirror made on the database loads every table from it, as a restart does.
  const db = await openPglite();
  opened.push(db);
  const written = mirroredState(db, defaultLimits);
  for (const i of [1, 2, 3]) await written.users.put(a, `usr_${i}`, user(`usr_${i}`, `u${i}@example.org`));
  await written.users.put(b, 'usr_b', user('usr_b', 'b@example.org'));
  await written.close();

  // Two records a company: company a's third is not served.
  const lowered = mirroredState(db, { ...defaultLimits, maxRecordsPerCompany: 2 });
  const warnings = await warningsDuring(() => lowered.users.count(a));
  expect(warnings).toEqual(['the PGlite store holds a record the limits refuse (users usr_3): kept on disk, not served']);
  expect((await lowered.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_2']);
  expect((await lowered.users.list(b)).map((u) => u.id)).toEqual(['usr_b']);
  expect(await lowered.users.get(a, 'usr_3')).toBeUndefined();
  // At its cap: a new record is refused, a served one may change.
  await expect(lowered.users.put(a, 'usr_4', user('usr_4', 'u4@example.org'))).rejects.toThrow('as many records');
  await lowered.users.put(a, 'usr_1', { ...user('usr_1', 'u1@example.org'), emailVerified: true });
  await lowered.close();

  // A byte budget that holds one user of company a.
  const small = mirroredState(db, { ...defaultLimits, maxBytesPerCompany: 150 });
  const budgetWarnings = await warningsDuring(() => small.users.count(a));
  expect(budgetWarnings).toEqual([
    'the PGlite store holds a record the limits refuse (users usr_2): kept on disk, not served',
    'the PGlite store holds a record the limits refuse (users usr_3): kept on disk, not served',
  ]);
  expect((await small.users.list(a)).map((u) => u.id)).toEqual(['usr_1']);
  await small.close();

  // The limits raised again: everything on disk is served, the change made under the low limits included.
  const raised = mirroredState(db, defaultLimits);
  expect(await warningsDuring(() => raised.users.count(a))).toEqual([]);
  expect((await raised.users.list(a)).map((u) => [u.id, u.emailVerified])).toEqual([
    ['usr_1', true],
    ['usr_2', false],
    ['usr_3', false],
  ]);
}, 60_000);
