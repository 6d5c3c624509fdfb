// PGlite in a worker thread (pglite-worker.ts) as the code that uses it sees it: the same values as in this
// thread (bytea a Buffer, int8 a number or BigInt), a PostgreSQL error with the fields that say which rule
// failed, a commit that fails rejected, a close that answers what was asked before it and refuses after,
// and a data directory that is not a database refused at open instead of hanging.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openPglite } from './pglite.js';

let db: Database;
beforeAll(async () => {
  db = await openPglite(undefined, { worker: true });
  await db.query(`create table item (n integer primary key, note text not null, blob bytea, big int8);
    create table later (n integer primary key, item integer references item (n) deferrable initially deferred)`);
}, 60_000);
afterAll(() => db?.close());

it('reads bytea as a Buffer and int8 as a number or a BigInt, in and out of a transaction', async () => {
  const expected = { blob: Buffer.from([0, 1, 255]), big: 2n ** 60n, small: 7, empty: Buffer.alloc(0) };
  const sql = `select $1::bytea as blob, $2::int8 as big, 7::int8 as small, '\\x'::bytea as empty`;
  const [row] = await db.query(sql, [Buffer.from([0, 1, 255]), 2n ** 60n]);
  expect(row).toEqual(expected);
  expect([Buffer.isBuffer(row!.blob), Buffer.isBuffer(row!.empty), typeof row!.small]).toEqual([true, true, 'number']);
  const [inside] = await db.transaction((tx) => tx.query<Record<string, unknown>>(sql, [Buffer.from([0, 1, 255]), 2n ** 60n]));
  expect(inside).toEqual(expected);
  expect(Buffer.isBuffer(inside!.blob)).toBe(true);
}, 60_000);

it("keeps a PostgreSQL error's fields across the thread: code, table, constraint, detail", async () => {
  await db.query('insert into item (n, note) values ($1, $2)', [1, 'one']);
  const error = await db.query('insert into item (n, note) values ($1, $2)', [1, 'again']).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(Error);
  expect(error).toMatchObject({ code: '23505', table: 'item', constraint: 'item_pkey', severity: 'ERROR', detail: 'Key (n)=(1) already exists.' });
  expect((error as Error).message).toContain('duplicate key');
  // A statement without parameters (run as a script) fails the same way.
  await expect(db.query(`insert into item (n, note) values (2, null)`)).rejects.toMatchObject({ code: '23502', column: 'note', table: 'item' });
}, 60_000);

it('rejects a transaction whose COMMIT fails, and keeps none of its writes', async () => {
  // A deferred foreign key is checked at COMMIT: the work resolves, the commit fails.
  await expect(
    db.transaction(async (tx) => {
      await tx.query('insert into later (n, item) values ($1, $2)', [1, 404]);
      return 'worked';
    }),
  ).rejects.toMatchObject({ code: '23503' });
  expect(await db.query('select n from later')).toEqual([]);
  // And the database goes on.
  expect(await db.transaction((tx) => tx.query('select 1 as one'))).toEqual([{ one: 1 }]);
}, 60_000);

it('refuses at open a data directory that holds something else than a database', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-worker-not-a-db-'));
  try {
    writeFileSync(join(dir, 'PG_VERSION'), 'not a version\n');
    await expect(openPglite(dir, { worker: true })).rejects.toThrow();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

// Last: it closes the database the tests above share.
it('answers what was asked before a close, refuses what is asked after, and closes once however often asked', async () => {
  const asked = db.query<{ n: number }>('select 41 + 1 as n');
  const closing = [db.close(), db.close()];
  expect(await asked).toEqual([{ n: 42 }]);
  await Promise.all(closing);
  await expect(db.query('select 1')).rejects.toThrow('the database is closed');
  await expect(db.transaction((tx) => tx.query('select 1'))).rejects.toThrow('the database is closed');
  await db.close();
}, 60_000);
