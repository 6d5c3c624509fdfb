// Two handles on one database, as two sandbox instances have, for each engine the tests run on.
import { inject } from 'vitest';
import type { Database } from './database.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** PGlite belongs to one process, so both handles are the same; PostgreSQL gets two connections' pools. */
export const twoHandleEngines: [string, () => Promise<[Database, Database]>][] = [
  [
    'pglite',
    async () => {
      const db = await openPglite();
      return [db, db];
    },
  ],
  [
    'postgres',
    async () => {
      const url = await createTestDatabase(inject('postgresUrl'));
      return [await openPostgres(url), await openPostgres(url)];
    },
  ],
];
