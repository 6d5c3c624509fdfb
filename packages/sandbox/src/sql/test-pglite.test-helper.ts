// A PGlite-backed Database for the store's tests, in memory or in a directory. (sql/pglite.ts is the
// sandbox's own; this one stays tiny so the store's tests depend on nothing else.)
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Database } from './database.js';

export async function testPglite(dataDir?: string): Promise<Database> {
  const pg = await PGlite.create(dataDir);
  const on = (q: PGlite | Transaction, top: boolean): Database => ({
    kind: 'pglite',
    query: async <Row>(text: string, params: readonly unknown[] = []) => (await q.query<Row>(text, params as unknown[])).rows,
    // A transaction inside a transaction is the same transaction.
    transaction: (work) => (top ? pg.transaction((tx) => work(on(tx, false))) : work(on(q, false))),
    close: () => pg.close(),
  });
  return on(pg, true);
}
