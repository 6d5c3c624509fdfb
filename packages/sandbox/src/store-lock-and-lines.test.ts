// What the command line's store choice (store-choice.ts) prints and keeps, beyond store-choice.test.ts:
// the start-up line of each store, a URL's password never shown, where the data goes by default, and the
// lock of a PGlite directory: a lock naming no live process (garbage, zero, a negative number, empty) is
// taken over, one naming a live process is not, and a store that fails to open leaves no lock behind.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from './sql/pg-cluster.test-helper.js';
import { defaultDataDir, openStore, shownUrl } from './store-choice.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-store-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const initCwd = process.env.INIT_CWD;
afterEach(() => {
  if (initCwd === undefined) delete process.env.INIT_CWD;
  else process.env.INIT_CWD = initCwd;
});

describe('the start-up line', () => {
  it('of memory says the data goes when the sandbox stops, and why with --seed', async () => {
    expect((await openStore({ memory: true })).description).toBe('in memory (gone when the sandbox stops)');
    expect((await openStore({ seed: 3 })).description).toBe('in memory (gone when the sandbox stops): --seed keeps no data');
    expect((await openStore({ seed: 3, memory: true })).description).toBe('in memory (gone when the sandbox stops)');
  });

  it('of a PostgreSQL server names it without its password, with the schema brought up to date', async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const store = await openStore({ database: url });
    try {
      expect(store.description).toBe(`PostgreSQL at ${shownUrl(url)}`);
      expect(store.database!.kind).toBe('postgres');
      // Migrated: the store's tables are there.
      expect(await store.database!.query(`select to_regclass('sessions') is not null as made`)).toEqual([{ made: true }]);
    } finally {
      await store.close();
    }
    // Closed with the store.
    await expect(store.database!.query('select 1')).rejects.toThrow();
  }, 60_000);

  it('of no flag at all is PGlite in .sandbox-data where npm was run', async () => {
    process.env.INIT_CWD = join(dir, 'npm-ran-here');
    const store = await openStore({});
    try {
      expect(store.description).toBe(`PGlite in ${join(dir, 'npm-ran-here', '.sandbox-data')} (new) (kept across restarts; --memory keeps nothing, --data <dir> chooses another)`);
      expect(store.database!.kind).toBe('pglite');
    } finally {
      await store.close();
    }
  }, 120_000);

  it('of a PGlite directory names it, and says (new) the first time only', async () => {
    const data = join(dir, 'lines', 'data');
    const first = await openStore({ data });
    await first.close();
    const again = await openStore({ data });
    await again.close();
    expect(first.description).toBe(`PGlite in ${data} (new) (kept across restarts; --memory keeps nothing, --data <dir> chooses another)`);
    expect(again.description).toBe(`PGlite in ${data} (kept across restarts; --memory keeps nothing, --data <dir> chooses another)`);
  }, 120_000);
});

describe('a database URL as printed', () => {
  it('hides the password only, and keeps a URL without one as it is', () => {
    expect(shownUrl('postgres://sandbox:secret@db.example:5432/idv')).toBe('postgres://sandbox:***@db.example:5432/idv');
    expect(shownUrl('postgres://sandbox@db.example:5432/idv')).toBe('postgres://sandbox@db.example:5432/idv');
    expect(shownUrl('not a url with secret')).toBe('(a database URL that is not a valid URL)');
  });
});

describe('the data directory by default', () => {
  it('is .sandbox-data where npm was run, else in the working directory', () => {
    process.env.INIT_CWD = '/somewhere/the-repo';
    expect(defaultDataDir()).toBe('/somewhere/the-repo/.sandbox-data');
    delete process.env.INIT_CWD;
    expect(defaultDataDir()).toBe(resolve(process.cwd(), '.sandbox-data'));
  });
});

describe('the lock of a PGlite directory', () => {
  it.each(['not a pid', '0', '-1', '', '1.5'])('naming no live process (%j) is taken over', async (holder) => {
    const data = join(dir, `stale-${holder || 'empty'}`);
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'sandbox.lock'), holder);
    const store = await openStore({ data });
    try {
      expect(readFileSync(join(data, 'sandbox.lock'), 'utf8')).toBe(String(process.pid));
    } finally {
      await store.close();
    }
    expect(existsSync(join(data, 'sandbox.lock'))).toBe(false);
  }, 120_000);

  it('naming a live process of the machine is not taken over, and is left as it was', async () => {
    const data = join(dir, 'held');
    mkdirSync(data, { recursive: true });
    // Process 1 is alive on every machine (the init process, or the container's first process).
    writeFileSync(join(data, 'sandbox.lock'), '1');
    await expect(openStore({ data })).rejects.toThrow(`${resolve(data)} is in use by another sandbox (process 1); stop it, or choose --data <another dir> or --memory.`);
    expect(readFileSync(join(data, 'sandbox.lock'), 'utf8')).toBe('1');
  });

  it('is not left behind by a store that fails to open', async () => {
    const data = join(dir, 'broken');
    mkdirSync(join(data, 'pglite'), { recursive: true });
    writeFileSync(join(data, 'pglite', 'PG_VERSION'), 'not a version\n');
    await expect(openStore({ data })).rejects.toThrow();
    expect(existsSync(join(data, 'sandbox.lock'))).toBe(false);
  }, 120_000);
});
