// Request logs on PostgreSQL for the request-log-sql*.test.ts files: each call gives a database of its own
// on the test cluster and `count` logs on it, each through its own pool (as separate instances); all are
// closed after the file's tests.
import { afterAll, inject } from 'vitest';
import type { Database } from '../sql/database.js';
import { createTestDatabase } from '../sql/pg-cluster.test-helper.js';
import { openPostgres } from '../sql/postgres.js';
import { createSqlRequestLog, type SqlRequestLog } from './request-log-sql.js';

type LogOptions = Partial<Parameters<typeof createSqlRequestLog>[0]>;

/** Call at a test file's top level; `defaults` apply to every log (the batch's timer, say). */
export function logsOnTestDatabases(defaults: LogOptions) {
  const opened: Database[] = [];
  const logs: SqlRequestLog[] = [];
  afterAll(async () => {
    for (const log of logs) log.close();
    for (const db of opened) await db.close();
  });
  /** `wrap` puts something between a log and its pool (a database that fails, say). */
  return async (count: number, options: LogOptions = {}, wrap = (database: Database) => database): Promise<SqlRequestLog[]> => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const made: SqlRequestLog[] = [];
    for (let i = 0; i < count; i++) {
      const database = await openPostgres(url);
      opened.push(database);
      made.push(createSqlRequestLog({ database: wrap(database), secrets: [], ...defaults, ...options }));
    }
    logs.push(...made);
    return made;
  };
}
