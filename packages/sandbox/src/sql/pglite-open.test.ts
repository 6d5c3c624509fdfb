// Opening and closing PGlite (pglite.ts): a --data directory holding something else than a database is
// refused and left exactly as it was (never emptied to make a database there); a closed database refuses
// statements and may be closed again. (A new directory kept across a close: database.test.ts.)
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openPglite } from './pglite.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-pglite-open-'));
  dirs.push(dir);
  return dir;
};

it('refuses statements once closed, and may be closed again', async () => {
  const db = await openPglite();
  expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
  await db.close();
  await db.close(); // a second close does nothing
  await expect(db.query('select 1')).rejects.toThrow();
}, 60_000);

it('refuses a directory that holds something else, and leaves its files as they were', async () => {
  const dir = newDir();
  writeFileSync(join(dir, 'notes.txt'), 'my own notes\n');
  writeFileSync(join(dir, 'PG_VERSION'), 'not a version\n');
  await expect(openPglite(dir)).rejects.toThrow();
  expect(readdirSync(dir).sort()).toEqual(['PG_VERSION', 'notes.txt']);
  expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('my own notes\n');
}, 60_000);
