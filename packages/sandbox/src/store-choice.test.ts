// Which store the command line opens, and the lock that keeps a second process off a PGlite directory.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, shownUrl, storeConflict } from './store-choice.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-store-choice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the store flags', () => {
  it.each([
    [{ memory: true, data: 'x' }, 'error: choose one of --memory, --data and --database, not --memory and --data'],
    [{ data: 'x', database: 'postgres://h/db' }, 'error: choose one of --memory, --data and --database, not --data and --database'],
    [{ seed: 1, data: 'x' }, 'error: --seed repeats IDs after a restart, so it keeps its data in memory only: leave out --data'],
    [{ seed: 1, database: 'postgres://h/db' }, 'error: --seed repeats IDs after a restart, so it keeps its data in memory only: leave out --database'],
  ])('%j is refused: %s', (choice, message) => {
    expect(storeConflict(choice)).toBe(message);
  });

  it.each([[{}], [{ memory: true }], [{ seed: 1 }], [{ seed: 1, memory: true }], [{ database: 'postgres://h/db' }]])('%j is accepted', (choice) => {
    expect(storeConflict(choice)).toBeUndefined();
  });

  it('prints a database URL without its password', () => {
    expect(shownUrl('postgres://sandbox:s3cret-pass@db.example:5432/idv')).toBe('postgres://sandbox:***@db.example:5432/idv');
    expect(shownUrl('not a url s3cret')).not.toContain('s3cret');
  });

  it('keeps memory with --seed, where IDs would repeat in a kept store', async () => {
    const store = await openStore({ seed: 7 });
    expect(store.database).toBeUndefined();
    expect(store.description).toMatch(/^in memory/);
  });
});

describe('a PGlite directory', () => {
  it('is opened by one process at a time; its lock goes with the store, and a dead process’s lock is taken over', async () => {
    const data = join(dir, 'data');
    const store = await openStore({ data });
    try {
      expect(store.database!.kind).toBe('pglite');
      expect(store.description).toContain(data);
      expect(readFileSync(join(data, 'sandbox.lock'), 'utf8')).toBe(String(process.pid));
      // The lock names this process, which is alive: a second open is refused, naming the way out.
      await expect(openStore({ data })).rejects.toThrow(/in use by another sandbox \(process \d+\).*--memory/);
    } finally {
      await store.close();
    }
    expect(existsSync(join(data, 'sandbox.lock'))).toBe(false);
    // A lock left by a process that is gone (no such PID) does not keep the directory closed.
    writeFileSync(join(data, 'sandbox.lock'), '2147483646');
    const again = await openStore({ data });
    expect(again.description).not.toContain('(new)');
    await again.close();
  }, 120_000);
});
