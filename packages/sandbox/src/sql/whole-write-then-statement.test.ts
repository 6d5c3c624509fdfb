// A write marked whole (group-commit.ts `WholeBatchable`: its transaction's only statement, as the store's
// puts outside a transaction) is sent with its group's COMMIT ahead of its answer. A transaction that runs
// another statement after such a write breaks that promise: the group fails with an error that says so,
// for each of its transactions, rather than answering that transaction as done while its statement waits.
// Work that sends no statement after the write (the answer's making, a wait) is allowed: the group waits
// for such a transaction to end before it checks.
import { afterAll, expect, inject, it } from 'vitest';
import type { Batchable, Database } from './database.js';
import { groupCommit, type WholeBatchable } from './group-commit.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';

let db: Database | undefined;
afterAll(async () => {
  await db?.close();
});

const whole = (n: number): WholeBatchable<number> => ({
  key: 'written',
  item: n,
  whole: true,
  many: async (tx, items) => {
    await tx.query('insert into written (n) select unnest($1::integer[])', [items]);
    return items.map(() => 'written');
  },
});
const park = (tx: Database, n: number) => tx.park!(whole(n) as Batchable, async () => (await tx.query('insert into written (n) values ($1)', [n]), 'written alone'));

async function open() {
  db ??= await openPostgres(await createTestDatabase(inject('postgresUrl')));
  await db.query('create table if not exists written (n integer primary key)');
  await db.query('delete from written');
  return { db, run: groupCommit(db, async (tx, company) => void (await tx.query('select pg_advisory_xact_lock(hashtext($1))', [company]))) };
}

it('fails the group of a transaction that runs a statement after its whole write, with the rule it broke', async () => {
  const { db, run } = await open();
  const outcomes = await Promise.allSettled([
    run('ck_test_whole_0000', (tx) => park(tx, 1)),
    run('ck_test_whole_0000', async (tx) => {
      await park(tx, 2);
      return tx.query('select count(*) from written');
    }),
  ]);
  expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
    'a transaction whose write was marked whole ran another statement after it',
    'a transaction whose write was marked whole ran another statement after it',
  ]);
  // The COMMIT went with the statement, ahead of its answer: what the statement wrote is kept (postgres.ts:
  // a COMMIT sent ahead decides), which is why a whole write must be its transaction's last statement.
  expect((await db.query<{ n: number }>('select n from written order by n')).map((row) => row.n)).toEqual([1, 2]);
});

it('answers a transaction that, after its whole write, only works a while without a statement', async () => {
  const { db, run } = await open();
  const outcomes = await Promise.all([
    run('ck_test_whole_0000', (tx) => park(tx, 1)),
    run('ck_test_whole_0000', async (tx) => {
      const written = await park(tx, 2);
      // The answer made over a few turns, as a handler that formats it asynchronously.
      for (let turn = 0; turn < 20; turn++) await null;
      return `${written}, then answered`;
    }),
  ]);
  expect(outcomes).toEqual(['written', 'written, then answered']);
  expect((await db.query<{ n: number }>('select n from written order by n')).map((row) => row.n)).toEqual([1, 2]);
});
