// PGlite in a worker thread (pglite-worker.ts) answers as PGlite in this thread does: the same fields of a
// PostgreSQL error (what the code and a log show of a failed statement), the engine it names, a statement
// still running when the close is asked for answered before the close, a --data directory it wrote opened
// again; and it holds the process open only while a statement is waiting for its answer (a script that
// opened the database and is done can exit; one waiting for an answer does not exit before it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openPglite } from './pglite.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-worker-answers-'));
let worker: Database;
let thread: Database;
beforeAll(async () => {
  [worker, thread] = await Promise.all([openPglite(undefined, { worker: true }), openPglite()]);
}, 60_000);
afterAll(async () => {
  await worker?.close();
  await thread?.close();
  rmSync(dir, { recursive: true, force: true });
});

const fields = ['severity', 'code', 'detail', 'hint', 'position', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine', 'where'] as const;
const failure = async (db: Database, text: string) => {
  const error = (await db.query(text).then(() => undefined, (caught: unknown) => caught)) as Record<string, unknown>;
  expect(error).toBeInstanceOf(Error);
  return Object.fromEntries(fields.map((name) => [name, error[name]]).filter(([, value]) => value !== undefined));
};

it('gives every field of a PostgreSQL error that PGlite in this thread gives', async () => {
  const schema = `create domain positive as integer check (value > 0);
    create table item (n integer primary key, amount positive)`;
  await worker.query(schema);
  await thread.query(schema);
  const failing = [
    `insert into item (n) values (1); insert into item (n) values (1)`, // schema, table, constraint, detail
    `selec 1`, // position
    `select (-1)::positive`, // dataType
    `do $$ begin raise exception 'refused' using hint = 'ask again later', detail = 'a rule said no'; end $$`, // hint, where
  ];
  const seen = new Set<string>();
  for (const text of failing) {
    const expected = await failure(thread, text);
    for (const name of Object.keys(expected)) seen.add(name);
    expect(await failure(worker, text)).toEqual(expected);
  }
  // Every field was given by one of the statements above (else the comparison would say nothing of it).
  expect([...seen].sort()).toEqual(fields.filter((name) => name !== 'column').sort());
}, 60_000);

it('names its engine, outside and inside a transaction', async () => {
  expect(worker.kind).toBe('pglite');
  expect(await worker.transaction(async (tx) => tx.kind)).toBe('pglite');
}, 60_000);

it('answers a statement still running when the close is asked for, then closes', async () => {
  const db = await openPglite(undefined, { worker: true });
  const asked = db.query<{ one: number }>('select 1 as one from pg_sleep(0.4)');
  await db.close();
  expect(await asked).toEqual([{ one: 1 }]);
}, 60_000);

it('opens again a --data directory it wrote, with what was written', async () => {
  const data = join(dir, 'data');
  const first = await openPglite(data, { worker: true });
  await first.query('create table kept (n integer)');
  await first.query('insert into kept (n) values ($1)', [7]);
  await first.close();
  const again = await openPglite(data, { worker: true });
  try {
    expect(await again.query('select n from kept')).toEqual([{ n: 7 }]);
  } finally {
    await again.close();
  }
}, 60_000);

/** Handles that keep this process (thread) alive, as Node counts them: a worker's port that is referenced. */
const holding = () => process.getActiveResourcesInfo().filter((name) => name === 'MessagePort').length;
const turn = () => new Promise((resolve) => setTimeout(resolve, 20));

it('holds the process open while a statement waits for its answer, and only then', async () => {
  const idle = holding();
  const db = await openPglite(undefined, { worker: true });
  try {
    // Opened, nothing asked yet: a script that opens the database and does nothing else can exit.
    await turn();
    expect(holding()).toBe(idle);
    await db.query('select 1');
    await turn();
    expect(holding()).toBe(idle);
    // Answered in the order asked: the quick one first, while the slow one still waits.
    const quick = db.query('select 1');
    expect(holding()).toBe(idle + 1);
    const slow = db.query('select pg_sleep(0.4)');
    expect(holding()).toBe(idle + 1);
    await quick;
    expect(holding()).toBe(idle + 1);
    await slow;
    await turn();
    expect(holding()).toBe(idle);
  } finally {
    await db.close();
  }
}, 60_000);
