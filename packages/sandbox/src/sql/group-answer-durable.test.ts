// A group commit answers its transactions only once the write-ahead log is on disk past its COMMIT
// (issue 15: a 200 is durable). The group's COMMIT itself does not wait for the flush (the company's lock
// is free at once), so the barrier sent behind it must run after it, outside the group's transaction,
// and wait for a flush that covers it. The tests' cluster commits asynchronously for speed
// (pg-cluster.test-helper.ts), so these pools ask for synchronous commits, as a server's default is.
import { afterAll, expect, inject, it } from 'vitest';
import type { Database } from './database.js';
import { groupCommit } from './group-commit.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

async function open() {
  const url = await createTestDatabase(inject('postgresUrl'));
  const db = await openPostgres(`${url}?synchronous_commit=on`);
  const observer = await openPostgres(url);
  opened.push(db, observer);
  await db.query('create table written (n integer primary key)');
  return { db, observer };
}

it('answers a group once the log is flushed past its commit, not before', async () => {
  const { db, observer } = await open();
  const run = groupCommit(db, async (tx, company) => void (await tx.query('select pg_advisory_xact_lock(hashtext($1))', [company])));
  // One group after another, quickly: PostgreSQL's WAL writer flushes asynchronous commits only every
  // 200 ms, so a group answered before its own flush finds the log not yet flushed past it.
  for (let n = 0; n < 30; n++) {
    const writtenAt = await run('ck_test_durable_0000', async (tx) => {
      await tx.query('insert into written (n) values ($1)', [n]);
      // The commit record comes after this position in the log.
      const [row] = await tx.query<{ at: string }>('select pg_current_wal_insert_lsn()::text as at');
      return row!.at;
    });
    const [row] = await observer.query<{ flushed: boolean }>('select pg_current_wal_flush_lsn() > $1::text::pg_lsn as flushed', [writtenAt]);
    expect({ n, flushed: row!.flushed }).toEqual({ n, flushed: true });
  }
  expect((await observer.query<{ count: number }>('select count(*)::integer as count from written'))[0]!.count).toBe(30);
});

it('answers each of several parallel groups of a company after its flush', async () => {
  const { db, observer } = await open();
  const run = groupCommit(db, async (tx, company) => void (await tx.query('select pg_advisory_xact_lock(hashtext($1))', [company])));
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, n) =>
      run('ck_test_durable_0000', async (tx) => {
        await tx.query('insert into written (n) values ($1)', [n]);
        const [row] = await tx.query<{ at: string }>('select pg_current_wal_insert_lsn()::text as at');
        // Checked as soon as this transaction is answered: the promise below resolves with the group.
        return row!.at;
      }).then(async (at) => (await observer.query<{ flushed: boolean }>('select pg_current_wal_flush_lsn() > $1::text::pg_lsn as flushed', [at]))[0]!.flushed),
    ),
  );
  expect(answers.filter((flushed) => !flushed)).toEqual([]);
});
