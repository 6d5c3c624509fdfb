// The PGlite memory mirror (mirror.ts) beyond the store contract (sql/store.test.ts): what it loads at
// open, how its commits are grouped, and what a failed commit leaves (nothing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { Database } from './database.js';
import { mirroredState } from './mirror.js';
import { openPglite } from './pglite.js';
import { user } from '../sample-records.test-helper.js';

const a = 'ck_test_mirror_a_0000';

const opened: Database[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-mirror-'));
  dirs.push(dir);
  return dir;
};
const open = async (dir?: string) => {
  const db = await openPglite(dir);
  opened.push(db);
  return db;
};
/**
 * The database, counting its transactions and failing them on demand. A statement without parameters
 * counts as one too: the mirror commits new records as one message of statements, which PostgreSQL runs
 * as one transaction (pglite-commit.ts).
 */
const watched = (db: Database) => {
  const watch = { transactions: 0, fail: false, hold: undefined as Promise<void> | undefined };
  const database: Database = {
    ...db,
    transaction: async (work) => {
      watch.transactions++;
      await watch.hold;
      if (watch.fail) throw new Error('disk full (a test)');
      return db.transaction(work);
    },
    query: async (text, params) => {
      if (params?.length) return db.query(text, params);
      watch.transactions++;
      await watch.hold;
      if (watch.fail) throw new Error('disk full (a test)');
      return db.query(text, params);
    },
  };
  return { database, watch };
};

describe('the PGlite memory mirror', () => {
  it('loads a directory at open: what was written before a close is read after the reopen, from memory', async () => {
    const dir = newDir();
    let db = await open(dir);
    let state = mirroredState(db, defaultLimits);
    await state.users.put(a, 'usr_1', user('usr_1', 'x@example.org'));
    await state.users.put(a, 'usr_\u0000odd', user('usr_\u0000odd', 'y@example.org'));
    await state.files.put(a, 'file_1', { id: 'file_1', sessionId: 'sess_1', stepKey: 's', questionKey: 'q', contentType: 'image/png', bytes: new Uint8Array([1, 2, 3]), uploadedAt: 'now' });
    await state.users.delete(a, 'usr_1');
    await state.users.put(a, 'usr_2', user('usr_2', 'x@example.org'));
    await state.close();
    await db.close();
    db = await open(dir);
    state = mirroredState(db, defaultLimits);
    expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_\u0000odd', 'usr_2']);
    expect(await state.users.ownerOf('usr_\u0000odd')).toBe(a);
    expect([...(await state.files.get(a, 'file_1'))!.bytes]).toEqual([1, 2, 3]);
    // Reads come from memory: rows removed behind the mirror's back are still answered.
    await db.query('delete from users_keys');
    await db.query('delete from users');
    expect((await state.users.find(a, 'email', 'x@example.org')).map((u) => u.id)).toEqual(['usr_2']);
    expect(await state.users.count(a)).toBe(2);
    // The unique rule is checked in memory, loaded from the directory.
    await expect(state.transaction(a, (tx) => tx.users.put(a, 'usr_3', user('usr_3', 'X@example.org')))).rejects.toMatchObject({ index: 'email' });
  }, 120_000);

  it('commits transactions that finish during a commit together: 30 companies, fewer PGlite transactions, all kept after a reopen', async () => {
    const dir = newDir();
    const db = await open(dir);
    const { database, watch } = watched(db);
    const groups: number[] = [];
    const state = mirroredState(database, defaultLimits, { onCommit: (size) => groups.push(size) });
    await state.users.count(a); // loaded
    watch.transactions = 0;
    const companies = Array.from({ length: 30 }, (_, i) => `ck_test_mirror_${String(i).padStart(2, '0')}`);
    await Promise.all(companies.map((company, i) => state.transaction(company, (tx) => tx.users.put(company, `usr_${i}`, user(`usr_${i}`, 'same@example.org')))));
    expect(watch.transactions).toBeLessThan(companies.length);
    expect(groups.reduce((sum, size) => sum + size, 0)).toBe(companies.length);
    expect(Math.max(...groups)).toBeGreaterThan(1);
    await state.close();
    await db.close();
    const again = mirroredState(await open(dir), defaultLimits);
    for (const [i, company] of companies.entries()) expect((await again.users.get(company, `usr_${i}`))?.email).toBe('same@example.org');
  }, 120_000);

  it('writes at most maxGroup transactions in one commit, and the usage of a group once, exact: 40 writes of one company', async () => {
    const db = await open();
    const groups: number[] = [];
    const state = mirroredState(db, defaultLimits, { onCommit: (size) => groups.push(size), maxGroup: 4 });
    await state.users.count(a); // loaded
    // A burst of one company: each transaction built on the ones still being committed.
    await Promise.all(Array.from({ length: 40 }, (_, i) => state.transaction(a, (tx) => tx.users.put(a, `usr_${i}`, user(`usr_${i}`, `u${i}@example.org`)))));
    await state.transaction(a, (tx) => tx.users.delete(a, 'usr_0'));
    expect(groups.reduce((sum, size) => sum + size, 0)).toBe(41);
    expect(Math.max(...groups)).toBeLessThanOrEqual(4);
    expect(Math.max(...groups)).toBeGreaterThan(1);
    const [usage] = await db.query<{ records: number; bytes: number }>(`select records, bytes from company_usage where company = $1 and collection = 'users'`, [a]);
    const [stored] = await db.query<{ records: number; bytes: number }>(`select count(*) as records, coalesce(sum(size), 0) as bytes from users where company = $1`, [a]);
    expect(Number(usage!.records)).toBe(39);
    expect({ records: Number(usage!.records), bytes: Number(usage!.bytes) }).toEqual({ records: Number(stored!.records), bytes: Number(stored!.bytes) });
    await state.close();
  }, 120_000);

  it('answers a failed PGlite commit with its error and leaves memory without the write', async () => {
    const { database, watch } = watched(await open());
    const state = mirroredState(database, defaultLimits);
    await state.users.put(a, 'usr_0', user('usr_0', 'kept@example.org'));
    watch.fail = true;
    await expect(
      state.transaction(a, async (tx) => {
        await tx.users.put(a, 'usr_1', user('usr_1', 'x@example.org'));
        await tx.users.delete(a, 'usr_0');
        return 'written';
      }),
    ).rejects.toThrow('disk full (a test)');
    await expect(state.users.put(a, 'usr_2', user('usr_2', 'y@example.org'))).rejects.toThrow('disk full (a test)');
    expect(await state.users.get(a, 'usr_1')).toBeUndefined();
    expect(await state.users.find(a, 'email', 'x@example.org')).toEqual([]);
    expect(await state.users.ownerOf('usr_1')).toBeUndefined();
    expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_0']);
    watch.fail = false;
    // Nothing of the failed write holds its key.
    await state.users.put(a, 'usr_3', user('usr_3', 'x@example.org'));
    expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_0', 'usr_3']);
  }, 120_000);

  it('shows a transaction its own writes, hides them from everyone else until committed, and drops them on a throw', async () => {
    const state = mirroredState(await open(), defaultLimits);
    await state.users.put(a, 'usr_0', user('usr_0', 'a@example.org'));
    let seenOutside: unknown = 'not read';
    await expect(
      state.transaction(a, async (tx) => {
        await tx.users.put(a, 'usr_1', user('usr_1', 'b@example.org'));
        await tx.users.delete(a, 'usr_0');
        expect((await tx.users.list(a)).map((u) => u.id)).toEqual(['usr_1']);
        expect((await tx.users.find(a, 'email', 'b@example.org')).map((u) => u.id)).toEqual(['usr_1']);
        expect(await tx.users.count(a)).toBe(1);
        await expect(tx.users.put(a, 'usr_2', user('usr_2', 'B@example.org'))).rejects.toMatchObject({ index: 'email' });
        seenOutside = await state.users.get(a, 'usr_1');
        const changed = (await tx.users.get(a, 'usr_1'))!;
        changed.emailVerified = true;
        throw new Error('refused after the writes');
      }),
    ).rejects.toThrow('refused after the writes');
    expect(seenOutside).toBeUndefined();
    expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_0']);
    // A record read in a transaction is a copy: changing it without a put changes nothing stored.
    await state.transaction(a, async (tx) => {
      (await tx.users.get(a, 'usr_0'))!.emailVerified = true;
    });
    expect((await state.users.get(a, 'usr_0'))!.emailVerified).toBe(false);
  }, 120_000);

  it("starts a company's next transaction on its writes still being committed, answers it after them, and fails it with them", async () => {
    const { database, watch } = watched(await open());
    const state = mirroredState(database, defaultLimits);
    await state.users.count(a);
    let release!: () => void;
    watch.hold = new Promise((resolve) => (release = resolve));
    const first = state.users.put(a, 'usr_1', user('usr_1', 'x@example.org'));
    const outcomes: string[] = [];
    const second = state.transaction(a, async (tx) => (await tx.users.find(a, 'email', 'x@example.org')).map((u) => u.id)).then((ids) => (outcomes.push('second'), ids));
    const third = state.transaction(a, (tx) => tx.users.put(a, 'usr_2', user('usr_2', 'y@example.org')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Not on disk yet: nobody outside sees it, and nothing is answered.
    expect(await state.users.get(a, 'usr_1')).toBeUndefined();
    expect(outcomes).toEqual([]);
    watch.fail = true;
    release();
    await expect(first).rejects.toThrow('disk full (a test)');
    await expect(second).rejects.toThrow('an earlier write of this company failed');
    await expect(third).rejects.toThrow();
    expect(await state.users.list(a)).toEqual([]);
    watch.fail = false;
    watch.hold = new Promise((resolve) => (release = resolve));
    const again = state.users.put(a, 'usr_1', user('usr_1', 'x@example.org'));
    const seen = state.transaction(a, async (tx) => (await tx.users.find(a, 'email', 'x@example.org')).map((u) => u.id));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await again;
    expect(await seen).toEqual(['usr_1']);
    expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1']);
  }, 120_000);
  it('holds at most maxQueued unconfirmed writes of a company: the next transaction starts only once the oldest is committed', async () => {
    const { database, watch } = watched(await open());
    const state = mirroredState(database, defaultLimits, { maxQueued: 2 });
    await state.users.count(a);
    let release!: () => void;
    watch.hold = new Promise((resolve) => (release = resolve));
    const started: string[] = [];
    const write = (id: string) => state.transaction(a, async (tx) => (started.push(id), tx.users.put(a, id, user(id, `${id}@example.org`))));
    const writes = ['usr_1', 'usr_2', 'usr_3', 'usr_4'].map(write);
    // Another company is not held by this one's queue.
    const other = state.transaction('ck_test_mirror_b_0000', async (tx) => (started.push('usr_b'), tx.users.put('ck_test_mirror_b_0000', 'usr_b', user('usr_b', 'b@example.org'))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([...started].sort()).toEqual(['usr_1', 'usr_2', 'usr_b']);
    release();
    await Promise.all([...writes, other]);
    expect(started.slice(3)).toEqual(['usr_3', 'usr_4']);
    expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_2', 'usr_3', 'usr_4']);
  }, 120_000);

  it('writes a commit of new records in one insert, and still one whose ID is on disk but not in memory', async () => {
    const { database, watch } = watched(await open());
    const state = mirroredState(database, defaultLimits);
    await state.users.count(a);
    // On disk behind the mirror's back (as a record kept from before lower limits is: stored, not served).
    await database.query(`insert into users (id, company, size, data) values ('usr_2', $1, 10, '{"id":"usr_2"}')`, [a]);
    let release!: () => void;
    watch.hold = new Promise((resolve) => (release = resolve));
    const first = state.users.put(a, 'usr_0', user('usr_0', 'zero@example.org'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // These three finish during the held commit: the next commit writes them as one run.
    const run = ['usr_1', 'usr_2', 'usr_3'].map((id) => state.users.put(a, id, user(id, `${id}@example.org`)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await Promise.all([first, ...run]);
    const rows = await database.query<{ id: string; data: string }>('select id, data::text as data from users order by seq');
    expect(rows.map((row) => [row.id, JSON.parse(row.data).email])).toEqual([
      ['usr_2', 'usr_2@example.org'],
      ['usr_0', 'zero@example.org'],
      ['usr_1', 'usr_1@example.org'],
      ['usr_3', 'usr_3@example.org'],
    ]);
    const keys = await database.query<{ id: string }>(`select id from users_keys where name = 'email' order by id`);
    expect(keys.map((key) => key.id)).toEqual(['usr_0', 'usr_1', 'usr_2', 'usr_3']);
  }, 120_000);
});
