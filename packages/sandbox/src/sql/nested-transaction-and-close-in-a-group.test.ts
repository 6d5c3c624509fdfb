// What a transaction of a group commit (group-commit.ts) can do with its handle besides statements: a
// nested transaction runs in the group's transaction and rolls back alone when it throws; closing the
// database from inside is refused and the database goes on serving.
import { afterAll, expect, inject, it } from 'vitest';
import type { Database } from './database.js';
import { groupCommit } from './group-commit.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';

let db: Database | undefined;
afterAll(async () => {
  await db?.close();
});

async function open() {
  db ??= await openPostgres(await createTestDatabase(inject('postgresUrl')));
  await db.query('create table if not exists kept (n integer primary key)');
  await db.query('delete from kept');
  return { db, run: groupCommit(db, async (tx, company) => void (await tx.query('select pg_advisory_xact_lock(hashtext($1))', [company]))) };
}
const kept = async (db: Database) => (await db.query<{ n: number }>('select n from kept order by n')).map((row) => row.n);

it("runs a nested transaction inside a group's transaction, and rolls back only the nested one that throws", async () => {
  const { db, run } = await open();
  const answers = await Promise.all([
    run('ck_test_nested_0000', async (tx) => {
      await tx.query('insert into kept (n) values (1)');
      const inner = await tx.transaction(async (nested) => {
        await nested.query('insert into kept (n) values (2)');
        return 'nested answer';
      });
      const refused = await tx
        .transaction(async (nested) => {
          await nested.query('insert into kept (n) values (3)');
          throw new Error('nested refusal');
        })
        .catch((error: Error) => error.message);
      return [inner, refused];
    }),
    run('ck_test_nested_0000', async (tx) => (await tx.query('insert into kept (n) values (4)'), 'next')),
  ]);
  expect(answers).toEqual([['nested answer', 'nested refusal'], 'next']);
  expect(await kept(db)).toEqual([1, 2, 4]);
});

it('refuses to close the database from a transaction of a group, and goes on', async () => {
  const { db, run } = await open();
  await expect(run('ck_test_nested_0000', (tx) => tx.close())).rejects.toThrow('close the database, not a transaction');
  expect(await run('ck_test_nested_0000', async (tx) => (await tx.query('insert into kept (n) values (5)'), 'stored'))).toBe('stored');
  expect(await kept(db)).toEqual([5]);
});
