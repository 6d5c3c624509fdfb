// What a transaction on PostgreSQL (postgres.ts) leaves behind, as the next request on the same pool sees
// it: a work that throws is rolled back and its connection serves the next one; one left aborted by a
// failed statement it caught fails at its commit instead of answering as if stored; one whose COMMIT was
// sent ahead (group-commit.ts `commitAhead`) is decided by that COMMIT; a nested transaction rolls back
// alone; a transaction's handle cannot close the pool. Pools of one connection: a connection that is not
// handed back, or handed back inside an open transaction, is what the next statement would get.
import { afterAll, expect, inject, it, vi } from 'vitest';
import type { Database } from './database.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => {});
});

let url: Promise<string> | undefined;
let table = 0;
/** A pool of one connection on the file's database, and a table of its own. */
async function open(query = '') {
  url ??= createTestDatabase(inject('postgresUrl'));
  const db = await openPostgres(`${await url}${query}`, { max: 1 });
  opened.push(db);
  const name = `kept_${++table}`;
  await db.query(`create table ${name} (n integer primary key)`);
  const kept = async () => (await db.query<{ n: number }>(`select n from ${name} order by n`)).map((row) => row.n);
  return { db, name, kept };
}

it('rolls back a work that throws after its statements, answers with its error, and serves the next statement', async () => {
  const { db, name, kept } = await open();
  await expect(
    db.transactionWithSavepoints!(async (tx) => {
      await tx.query(`insert into ${name} (n) values (1)`);
      throw new Error('refused by the handler');
    }),
  ).rejects.toThrow('refused by the handler');
  expect(await kept()).toEqual([]);
  expect(await db.transactionWithSavepoints!(async (tx) => (await tx.query(`insert into ${name} (n) values (2)`), 'stored'))).toBe('stored');
  expect(await db.transactionWithSavepoints!(async () => 'nothing to write')).toBe('nothing to write');
  expect(await kept()).toEqual([2]);
});

it('fails a transaction left aborted by a failed statement it caught, and stores none of it', async () => {
  const { db, name, kept } = await open();
  await expect(
    db.transactionWithSavepoints!(async (tx) => {
      await tx.query(`insert into ${name} (n) values (1)`);
      // A unique violation, caught and not rolled back to a savepoint: the transaction is aborted.
      await tx.query(`insert into ${name} (n) values (1)`).catch(() => {});
      return 'answered as stored';
    }),
  ).rejects.toThrow('the transaction was rolled back');
  expect(await kept()).toEqual([]);
});

it('keeps what a work sent before it committed ahead, though it throws afterwards: the COMMIT decides', async () => {
  const { db, name, kept } = await open();
  await expect(
    db.transactionWithSavepoints!(async (tx) => {
      const writing = tx.query(`insert into ${name} (n) values (1)`);
      (tx as Database & { commitAhead(): void }).commitAhead();
      await writing;
      throw new Error('failed after its commit was sent');
    }),
  ).rejects.toThrow('failed after its commit was sent');
  expect(await kept()).toEqual([1]);
});

it('rolls back a nested transaction alone inside a transaction with savepoints', async () => {
  const { db, name, kept } = await open();
  await db.transactionWithSavepoints!(async (tx) => {
    await tx.query(`insert into ${name} (n) values (1)`);
    await expect(
      tx.transaction(async (inner) => {
        await inner.query(`insert into ${name} (n) values (2)`);
        await inner.query(`insert into ${name} (n) values (1)`); // a unique violation
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await tx.query(`insert into ${name} (n) values (3)`);
  });
  expect(await kept()).toEqual([1, 3]);
});

it("refuses to close the pool from a transaction's handle, and the pool goes on", async () => {
  const { db, name, kept } = await open();
  const refusal = 'close the database, not a transaction';
  await db.transaction(async (tx) => {
    await expect(tx.close()).rejects.toThrow(refusal);
    await tx.query(`insert into ${name} (n) values (1)`);
  });
  await db.transactionWithSavepoints!(async (tx) => {
    await expect(tx.close()).rejects.toThrow(refusal);
    await tx.query(`insert into ${name} (n) values (2)`);
  });
  expect(await kept()).toEqual([1, 2]);
});

it('runs several statements given an empty parameter list, returning the last one’s rows', async () => {
  const { db, name } = await open();
  expect(await db.query(`insert into ${name} (n) values (7); select n from ${name}`, [])).toEqual([{ n: 7 }]);
});

it("hands the server's connections back when closed", async () => {
  const { db } = await open();
  const observer = await openPostgres(await url!);
  opened.push(observer);
  const [{ pid }] = (await db.query<{ pid: number }>('select pg_backend_pid() as pid')) as [{ pid: number }];
  await db.close();
  await vi.waitFor(async () => expect(await observer.query('select 1 from pg_stat_activity where pid = $1', [pid])).toEqual([]), { timeout: 10_000 });
});

it("closes a connection idle for the URL's idle_timeout (the URL's setting wins)", async () => {
  const { db } = await open('?idle_timeout=0.2');
  const observer = await openPostgres(await url!);
  opened.push(observer);
  const [{ pid }] = (await db.query<{ pid: number }>('select pg_backend_pid() as pid')) as [{ pid: number }];
  await vi.waitFor(async () => expect(await observer.query('select 1 from pg_stat_activity where pid = $1', [pid])).toEqual([]), { timeout: 10_000 });
});
