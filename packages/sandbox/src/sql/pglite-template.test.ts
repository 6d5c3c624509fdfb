// The template a fresh PGlite database starts from (pglite.ts): the first fresh database of a machine is
// made by PostgreSQL's initdb and saved in the temp directory, readable and writable by its user only; later
// processes start their fresh databases from it, but only from a file their user wrote that nobody else can
// write (another user could have put any database there); a template that does not load is made again; and
// a temp directory where nothing can be saved does not stop a database from opening.
// Each test points TMPDIR at a directory of its own and imports pglite.ts afresh (a process keeps its
// template in memory). Six of them run initdb (2 to 7 s each, about 3.5 s of CPU).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { Database } from './database.js';

const home = mkdtempSync(join(tmpdir(), 'sandbox-pglite-template-'));
const temp = join(home, 'tmp');
const before = process.env.TMPDIR;
const opened: Database[] = [];
beforeAll(() => mkdirSync(temp));
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  process.env.TMPDIR = before;
  if (before === undefined) delete process.env.TMPDIR;
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** openPglite of a process that has not opened a fresh database yet, its temp directory `dir`. */
async function newProcess(dir = temp) {
  process.env.TMPDIR = dir;
  vi.resetModules();
  const { openPglite } = await import('./pglite.js');
  return async (data?: string) => {
    const db = await openPglite(data);
    opened.push(db);
    return db;
  };
}
const templates = (dir = temp) => readdirSync(dir).filter((name) => /^idv-sandbox-pglite-.+\.tar$/.test(name));
const template = () => join(temp, templates()[0]!);
const marked = async (db: Database) => (await db.query<{ name: string | null }>(`select to_regclass('made_from_marker') as name`))[0]!.name !== null;

it('saves the first fresh database it makes as a template only its user can read or write, and nothing else', async () => {
  const open = await newProcess();
  const db = await open();
  expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
  // One file, named after PGlite's version and the user, no half-written copy beside it.
  expect(readdirSync(temp)).toEqual(templates());
  expect(templates()).toHaveLength(1);
  expect(statSync(template()).mode & 0o777).toBe(0o600);
}, 120_000);

it('starts the fresh databases of a later process from that template, in memory and in a new --data directory', async () => {
  // The template replaced by one with a table in it (as its user wrote it): a fresh database has the table.
  const { PGlite } = await import('@electric-sql/pglite');
  const source = await PGlite.create({ loadDataDir: new Blob([readFileSync(template())]) });
  await source.exec('create table made_from_marker (n integer)');
  const tar = Buffer.from(await (await source.dumpDataDir('none')).arrayBuffer());
  await source.close();
  writeFileSync(template(), tar, { mode: 0o600 });

  const open = await newProcess();
  expect(await marked(await open())).toBe(true);
  expect(await marked(await open(join(home, 'data-new')))).toBe(true);
  // An empty directory is a new one too.
  mkdirSync(join(home, 'data-empty'));
  expect(await marked(await open(join(home, 'data-empty')))).toBe(true);
}, 120_000);

it('names the template after its user, and does not start from the template of another user', async () => {
  const real = process.getuid;
  const name = templates()[0]!;
  expect(name).toMatch(new RegExp(`-${process.getuid!()}\\.tar$`));
  try {
    // Another user (ID 4242) on the same temp directory: the template there is not theirs.
    process.getuid = () => 4242;
    const open = await newProcess();
    expect(await marked(await open())).toBe(false);
    expect(templates().sort()).toEqual([name, name.replace(/-\d+\.tar$/, '-4242.tar')].sort());
    // A system without user IDs: one template for everyone.
    process.getuid = undefined;
    const openHere = await newProcess();
    expect(await (await openHere()).query('select 1 as one')).toEqual([{ one: 1 }]);
    expect(templates()).toContain(name.replace(/-\d+\.tar$/, '-user.tar'));
  } finally {
    process.getuid = real;
    for (const other of templates()) if (other !== name) rmSync(join(temp, other));
  }
}, 120_000);

it('does not start from a template that others can write: it makes a new one and saves it over', async () => {
  chmodSync(template(), 0o666);
  const open = await newProcess();
  expect(await marked(await open())).toBe(false);
  expect(statSync(template()).mode & 0o777).toBe(0o600);
  // The new template is the one a later process starts from.
  expect(await marked(await (await newProcess())())).toBe(false);
}, 120_000);

it('makes the template again when the saved one does not load, and opens a new --data directory from it', async () => {
  writeFileSync(template(), 'not a tar of a data directory', { mode: 0o600 });
  const open = await newProcess();
  const data = join(home, 'data-after-bad-template');
  const db = await open(data);
  await db.query('create table kept (n integer)');
  await db.query('insert into kept values (1)');
  expect(await db.query('select n from kept')).toEqual([{ n: 1 }]);
  expect(statSync(template()).size).toBeGreaterThan(1_000_000);
  expect(statSync(template()).mode & 0o777).toBe(0o600);
}, 120_000);

it('opens a fresh database when the template cannot be saved, and leaves no partial file behind', async () => {
  // Something else (a directory) holds the template's name: the save fails at the rename.
  const name = templates()[0]!;
  rmSync(template());
  mkdirSync(join(temp, name));
  writeFileSync(join(temp, name, 'something'), 'x');
  const db = await (await newProcess())();
  expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
  expect(readdirSync(temp)).toEqual([name]);
}, 120_000);

it('opens a fresh database when the temp directory does not exist', async () => {
  const missing = join(home, 'no-such-tmp');
  const db = await (await newProcess(missing))();
  expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
  expect(existsSync(missing)).toBe(false);
}, 120_000);
