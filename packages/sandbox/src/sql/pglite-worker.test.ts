// PGlite in a worker thread (pglite-worker.ts): the main thread keeps turning while a statement runs, and
// the database behaves as PGlite in one thread does (errors with their codes, rollbacks, close).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { commitChain } from './pglite-commit.js';
import { openPglite } from './pglite.js';

describe('PGlite in a worker thread', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPglite(undefined, { worker: true });
    await db.query('create table item (n integer primary key, note text)');
  }, 60_000);
  afterAll(() => db?.close());

  it('leaves the event loop free while a statement runs: timers fire before it is answered', async () => {
    let turns = 0;
    const timer = setInterval(() => turns++, 1);
    try {
      // About half a second of work in PostgreSQL (a sum over generated rows), not a sleep.
      await db.query('select sum(g) from generate_series(1, 3000000) g');
    } finally {
      clearInterval(timer);
    }
    expect(turns).toBeGreaterThan(0);
  }, 60_000);

  it('keeps a PostgreSQL error code across the thread, rolls a failed transaction back, and goes on', async () => {
    await db.query('insert into item (n, note) values ($1, $2)', [1, 'one']);
    await expect(db.query('insert into item (n, note) values ($1, $2)', [1, 'again'])).rejects.toMatchObject({ code: '23505' });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into item (n, note) values ($1, $2)', [2, 'two']);
        await tx.transaction((inner) => inner.query('insert into item (n, note) values ($1, $2)', [3, 'three']));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A savepoint's failure is caught inside; the rest of the transaction commits.
    await db.transaction(async (tx) => {
      await tx.query('insert into item (n, note) values ($1, $2)', [4, 'four']);
      await tx.transaction((inner) => inner.query('insert into item (n, note) values ($1, $2)', [1, 'duplicate'])).catch(() => undefined);
    });
    expect(await db.query('select n, note from item order by n')).toEqual([
      { n: 1, note: 'one' },
      { n: 4, note: 'four' },
    ]);
  }, 60_000);

  it('writes a chained commit only if the one before it was written, each posted without waiting for the last', async () => {
    const chain = commitChain(db);
    // Two commits out at a time: the worker goes from one to the next.
    expect(chain.depth).toBe(2);
    const sent = [
      chain.send(`insert into item (n, note) values (10, 'ten')`, false),
      chain.send(`insert into item (n, note) values (11, 'eleven'); insert into item (n, note) values (10, 'ten again')`, true),
      chain.send(`insert into item (n, note) values (12, 'built on eleven')`, true),
      chain.send(`insert into item (n, note) values (13, 'on its own')`, false),
    ];
    const outcomes = await Promise.allSettled(sent);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(outcomes[1]).toMatchObject({ reason: { code: '23505' } });
    expect(await db.query('select n from item where n >= 10 order by n')).toEqual([{ n: 10 }, { n: 13 }]);
  }, 60_000);

  it('answers what was asked before a close, then refuses', async () => {
    const other = await openPglite();
    const asked = other.query<{ n: number }>('select 41 + 1 as n');
    await other.close();
    expect(await asked).toEqual([{ n: 42 }]);
    await expect(other.query('select 1')).rejects.toThrow('closed');
  }, 60_000);
});
