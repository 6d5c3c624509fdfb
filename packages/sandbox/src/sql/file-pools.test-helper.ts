// Connection pools on one database of a test file's own (on the throwaway cluster), each closed after the
// file's tests: several pools on one database stand for several instances, or one restarted.
import { afterAll, inject } from 'vitest';
import type { Database } from './database.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';
import { defaultLimits } from '../limits.js';
import { sqlState } from './store.js';

/** Call at the top of a test file; the function it returns opens a new pool on the file's database. */
export function filePools(): () => Promise<Database> {
  const opened: Database[] = [];
  let url: Promise<string> | undefined;
  afterAll(async () => {
    for (const db of opened) await db.close();
  });
  return async () => {
    const db = await openPostgres(await (url ??= createTestDatabase(inject('postgresUrl'))));
    opened.push(db);
    return db;
  };
}

/** The SQL store on a new pool of `newPool`, emptied, with the size of each group it commits (onCommit). */
export async function emptyStoreCountingGroups(newPool: () => Promise<Database>) {
  const groups: number[] = [];
  const state = sqlState(await newPool(), defaultLimits, { onCommit: (size) => groups.push(size) });
  await state.clear();
  return { state, groups };
}
