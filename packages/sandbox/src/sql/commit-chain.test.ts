// The mirror's chain of commits with PGlite in this thread (pglite-commit.ts, commitChain): one commit out
// at a time, and a commit sent "after the previous" is written only if that one was, whatever came
// between; a commit sent on its own is written after a failed one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { commitChain } from './pglite-commit.js';
import { openPglite } from './pglite.js';

let db: Database;
beforeAll(async () => {
  db = await openPglite();
  await db.query('create table item (n integer primary key, note text)');
}, 60_000);
afterAll(() => db?.close());

const rows = async () => (await db.query<{ n: number }>('select n from item order by n')).map((row) => row.n);

it('writes a chained commit only if the one sent before it was written, and one sent on its own in any case', async () => {
  const chain = commitChain(db);
  expect(chain.depth).toBe(1);
  const sent = [
    chain.send(`insert into item (n, note) values (1, 'one')`, false),
    chain.send(`insert into item (n, note) values (2, 'two')`, true),
    // Fails (1 is taken): nothing of it is written, and the commits chained to it are not either.
    chain.send(`insert into item (n, note) values (3, 'three'); insert into item (n, note) values (1, 'one again')`, true),
    chain.send(`insert into item (n, note) values (4, 'built on three')`, true),
    chain.send(`insert into item (n, note) values (5, 'built on four')`, true),
    chain.send(`insert into item (n, note) values (6, 'on its own')`, false),
    chain.send(`insert into item (n, note) values (7, 'built on six')`, true),
  ];
  const outcomes = await Promise.allSettled(sent);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
  expect(outcomes[2]).toMatchObject({ reason: { code: '23505' } });
  expect(outcomes[3]).toMatchObject({ reason: { message: 'not written: the commit before it failed' } });
  expect(outcomes[4]).toMatchObject({ reason: { message: 'not written: the commit before it failed' } });
  expect(await rows()).toEqual([1, 2, 6, 7]);
}, 60_000);

it('starts a chain of its own for each call: a failure in one chain does not stop the next chain', async () => {
  const first = commitChain(db);
  await expect(first.send(`insert into item (n, note) values (1, 'taken')`, false)).rejects.toMatchObject({ code: '23505' });
  const second = commitChain(db);
  await second.send(`insert into item (n, note) values (10, 'ten')`, true);
  expect(await rows()).toContain(10);
}, 60_000);
