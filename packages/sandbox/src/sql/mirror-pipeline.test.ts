// The PGlite mirror's pipeline (mirror.ts, `pipeline`): the next group commit is sent while one is being
// written, on condition that that one is written. What must hold: a caller is answered only after its own
// commit, and a write that built on a failed one is never written and never answered 200.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { Database } from './database.js';
import { mirroredState } from './mirror.js';
import { openPglite } from './pglite.js';
import { user } from '../sample-records.test-helper.js';

const [a, b, c] = ['ck_test_pipeline_a_0000', 'ck_test_pipeline_b_0000', 'ck_test_pipeline_c_0000'];

const opened: Database[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("sends the next commit while one is held, answers neither before its own, and after a failed one writes none of the writes built on it", async () => {
  const db = await openPglite();
  opened.push(db);
  // The first commit message is held until released; with `failing`, a message that writes usr_1 fails, and
  // so does every transaction (the statement-by-statement commit that follows a failed message).
  const watch = { hold: undefined as Promise<void> | undefined, failing: false, messages: 0 };
  const database: Database = {
    ...db,
    transaction: async (work) => {
      if (watch.failing) throw new Error('disk full (a test)');
      return db.transaction(work);
    },
    query: async (text, params) => {
      if (params?.length) return db.query(text, params);
      watch.messages++;
      await watch.hold;
      if (watch.failing && text.includes('usr_1')) throw new Error('disk full (a test)');
      return db.query(text, params);
    },
  };
  const state = mirroredState(database, defaultLimits, { pipeline: 2 });
  await state.users.count(a); // loaded, the statements prepared by a first commit:
  await state.users.put(c, 'usr_0', user('usr_0', 'zero@example.org'));
  let release!: () => void;
  watch.hold = new Promise((resolve) => (release = resolve));
  const answered: string[] = [];
  const track = (name: string, write: Promise<unknown>) => write.then(() => void answered.push(name), (error: Error) => (answered.push(`${name}: ${error.message}`), undefined));

  const first = track('a1', state.users.put(a, 'usr_1', user('usr_1', 'one@example.org')));
  await pause(20);
  // The second group: another company's write, and one of company a that read usr_1 (still unconfirmed).
  const second = [
    track('b1', state.users.put(b, 'usr_b1', user('usr_b1', 'b1@example.org'))),
    track('a2', state.transaction(a, async (tx) => {
      expect((await tx.users.find(a, 'email', 'one@example.org')).map((u) => u.id)).toEqual(['usr_1']);
      await tx.users.put(a, 'usr_2', user('usr_2', 'two@example.org'));
    })),
  ];
  await pause(20);
  // A third waits: two commits are out.
  const third = track('c1', state.users.put(c, 'usr_c1', user('usr_c1', 'c1@example.org')));
  await pause(20);
  expect(answered).toEqual([]);
  expect(await state.users.get(b, 'usr_b1')).toBeUndefined();

  watch.failing = true;
  release();
  await Promise.all([first, ...second, third]);
  expect(answered.sort()).toEqual(['a1: disk full (a test)', 'a2: an earlier write of this company failed', 'b1', 'c1']);
  // Memory and disk agree: nothing of company a, the others' writes kept.
  expect(await state.users.list(a)).toEqual([]);
  expect((await state.users.list(b)).map((u) => u.id)).toEqual(['usr_b1']);
  expect((await state.users.list(c)).map((u) => u.id)).toEqual(['usr_0', 'usr_c1']);
  const rows = await db.query<{ id: string }>('select id from users order by id');
  expect(rows.map((row) => row.id)).toEqual(['usr_0', 'usr_b1', 'usr_c1']);
  await state.close();
}, 120_000);

it('keeps every answered write of a burst when PGlite runs in a worker thread (two commits out at a time), with the usage exact', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-mirror-pipeline-'));
  dirs.push(dir);
  const db = await openPglite(dir, { worker: true });
  opened.push(db);
  const groups: number[] = [];
  const state = mirroredState(db, defaultLimits, { onCommit: (size) => groups.push(size), maxGroup: 7 });
  await state.users.count(a);
  const companies = [a, b, c];
  const ids = Array.from({ length: 120 }, (_, i) => `usr_${i}`);
  await Promise.all(ids.map((id, i) => state.users.put(companies[i % 3]!, id, user(id, `${id}@example.org`))));
  await state.close();
  expect(groups.reduce((sum, size) => sum + size, 0)).toBe(ids.length);
  expect(Math.max(...groups)).toBeLessThanOrEqual(7);
  await db.close();
  opened.length = 0;

  const again = await openPglite(dir);
  opened.push(again);
  const reopened = mirroredState(again, defaultLimits);
  for (const [i, company] of companies.entries()) {
    expect((await reopened.users.list(company)).map((u) => u.id)).toEqual(ids.filter((_, n) => n % 3 === i));
  }
  const usage = await again.query<{ records: number }>(`select records from company_usage where collection = 'users' order by company`);
  expect(usage.map((row) => Number(row.records))).toEqual([40, 40, 40]);
}, 120_000);
