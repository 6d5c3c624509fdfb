// Where a sandbox started from the command line keeps its data (`npm run sandbox`, `npm start`,
// `npm run dev`): PGlite in a directory by default, a PostgreSQL server for a shared sandbox, or memory.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Database } from './sql/database.js';
import { migrate } from './sql/migrations.js';

export type StoreChoice = { memory?: boolean; data?: string; database?: string };

export type OpenedStore = {
  /** Undefined for memory. */
  database?: Database;
  /** One line for the start-up output: which store, and where (a URL without its password). */
  description: string;
  close(): Promise<void>;
};

/** `.sandbox-data/` in the directory npm was run from (the repository root for `npm start`), gitignored. */
export const defaultDataDir = (): string => resolve(process.env.INIT_CWD ?? process.cwd(), '.sandbox-data');

/** A URL as it may be printed: without its password. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(a database URL that is not a valid URL)';
  }
}

/** Which flags conflict, as a usage message, or undefined. `--seed` repeats IDs, so it never meets a kept store. */
export function storeConflict(choice: StoreChoice & { seed?: number }): string | undefined {
  const chosen = [choice.memory && '--memory', choice.data !== undefined && '--data', choice.database !== undefined && '--database'].filter(Boolean);
  if (chosen.length > 1) return `error: choose one of --memory, --data and --database, not ${chosen.join(' and ')}`;
  if (choice.seed !== undefined && chosen.length === 1 && !choice.memory) return `error: --seed repeats IDs after a restart, so it keeps its data in memory only: leave out ${chosen[0]}`;
  return undefined;
}

/**
 * PGlite has no locking between processes: a second sandbox on the same directory would corrupt it. A
 * lock file names the process that holds the directory; one left by a process that is gone is taken over.
 */
function lockDirectory(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'sandbox.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lock, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new Error(`${dir} is in use by another sandbox (process ${holder}); stop it, or choose --data <another dir> or --memory.`);
      }
      rmSync(lock, { force: true });
    }
  }
  throw new Error(`Cannot lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Opens the chosen store and brings its schema up to date (a failing migration stops the start). */
export async function openStore(choice: StoreChoice & { seed?: number }): Promise<OpenedStore> {
  if (choice.memory || (choice.seed !== undefined && choice.data === undefined && choice.database === undefined)) {
    return { description: `in memory (gone when the sandbox stops)${choice.memory ? '' : ': --seed keeps no data'}`, close: async () => {} };
  }
  if (choice.database !== undefined) {
    const { openPostgres } = await import('./sql/postgres.js');
    const database = await openPostgres(choice.database);
    await migrate(database);
    return { database, description: `PostgreSQL at ${shownUrl(choice.database)}`, close: () => database.close() };
  }
  const dir = resolve(choice.data ?? defaultDataDir());
  const unlock = lockDirectory(dir);
  try {
    const { openPglite } = await import('./sql/pglite.js');
    const fresh = !existsSync(join(dir, 'pglite'));
    const database = await openPglite(join(dir, 'pglite'));
    await migrate(database);
    return {
      database,
      description: `PGlite in ${dir}${fresh ? ' (new)' : ''} (kept across restarts; --memory keeps nothing, --data <dir> chooses another)`,
      close: async () => {
        await database.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
