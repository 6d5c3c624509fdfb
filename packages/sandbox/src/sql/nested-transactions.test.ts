// A transaction inside a transaction (database.ts, `insideTransaction`): each level a savepoint of its
// own, to any depth, so that a failed inner level undoes only its own writes and the outer ones commit;
// and a transaction's handle cannot close the database (only its owner can).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openPglite } from './pglite.js';

let db: Database;
beforeAll(async () => {
  db = await openPglite();
  await db.query('create table step (name text primary key)');
}, 60_000);
afterAll(() => db?.close());

const names = async () => (await db.query<{ name: string }>('select name from step order by name')).map((row) => row.name);
const add = (tx: Database, name: string) => tx.query('insert into step (name) values ($1)', [name]);

it('undoes only the failed level of transactions nested four deep, and commits the rest', async () => {
  await db.transaction(async (one) => {
    await add(one, 'a1');
    await one.transaction(async (two) => {
      await add(two, 'b2');
      await two.transaction(async (three) => {
        await add(three, 'c3');
        await three
          .transaction(async (four) => {
            await add(four, 'd4');
            throw new Error('the fourth level fails');
          })
          .catch(() => undefined);
        await add(three, 'c3-after');
      });
      await two
        .transaction(async (three) => {
          await add(three, 'e3');
          await three.transaction((four) => add(four, 'f4'));
          throw new Error('the second third level fails, with its committed fourth');
        })
        .catch(() => undefined);
    });
  });
  expect(await names()).toEqual(['a1', 'b2', 'c3', 'c3-after']);
}, 60_000);

it('refuses to close the database through a transaction', async () => {
  await db.transaction(async (tx) => {
    await expect(tx.close()).rejects.toThrow('close the database, not a transaction');
    await expect(tx.transaction((inner) => inner.close())).rejects.toThrow('close the database, not a transaction');
  });
  expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
}, 60_000);
