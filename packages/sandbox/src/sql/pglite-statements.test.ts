// Statements on PGlite, in this thread and in the worker (pglite.ts, pglite-worker.ts): a text of several
// statements runs whole when it has no parameters (an empty list of them included, as callers build it)
// and answers the last one's rows; with parameters it is one statement; the database names its engine,
// inside a transaction too (store.ts takes PostgreSQL's advisory lock on any other engine).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openPglite } from './pglite.js';

describe.each([
  ['in this thread', false],
  ['in a worker thread', true],
])('PGlite %s', (_, worker) => {
  let db: Database;
  beforeAll(async () => {
    db = await openPglite(undefined, { worker });
  }, 60_000);
  afterAll(() => db?.close());

  it('runs a text of several statements without parameters, or with none given, and answers the last one\'s rows', async () => {
    expect(await db.query('create table one (n integer); insert into one values (1); select n from one')).toEqual([{ n: 1 }]);
    expect(await db.query('insert into one values (2); select n from one order by n', [])).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await db.query('create table two (n integer)')).toEqual([]);
    expect(await db.transaction((tx) => tx.query('insert into two values (3); select n from two', []))).toEqual([{ n: 3 }]);
    expect(await db.query('select n from one where n = $1', [2])).toEqual([{ n: 2 }]);
  }, 60_000);

  it('names its engine, inside a transaction too', async () => {
    expect(db.kind).toBe('pglite');
    expect(await db.transaction(async (tx) => tx.kind)).toBe('pglite');
  }, 60_000);
});
