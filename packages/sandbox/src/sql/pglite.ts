// PGlite: PostgreSQL compiled to WebAssembly, in this process, its data in a directory (or in memory when
// no directory is given). The same SQL as a PostgreSQL server, through the same `Database` surface.
//
// A fresh cluster costs an `initdb` (≈ 8–15 s of WebAssembly on this machine kind); reopening one costs
// ≈ 2 s. So the first fresh cluster of a process is kept as a template (a tar of its data directory, in
// memory) and every later fresh one (in memory, or a new directory) is loaded from it: the tests open many.
import { existsSync, readdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Database } from './database.js';
import { sameResults } from './result-types.js';

type Queryable = Pick<Transaction, 'query' | 'exec'>;

let template: Promise<Blob> | undefined;

/** A tar of a freshly initialised data directory, made once per process. */
function freshTemplate(): Promise<Blob> {
  template ??= (async () => {
    const db = await PGlite.create({ parsers: sameResults.parsers });
    try {
      return await db.dumpDataDir('none');
    } finally {
      await db.close();
    }
  })();
  // A failed attempt is not kept: the next open tries again.
  template.catch(() => (template = undefined));
  return template;
}

const isFresh = (dir: string | undefined) => dir === undefined || !existsSync(dir) || readdirSync(dir).length === 0;

/** Runs `text` (several statements when there are no parameters, as a migration has) and returns the last rows. */
async function run<Row>(db: Queryable, text: string, params?: readonly unknown[]): Promise<Row[]> {
  if (params === undefined || params.length === 0) {
    const results = await db.exec(text);
    return (results.at(-1)?.rows ?? []) as Row[];
  }
  return (await db.query<Row>(text, params as unknown[])).rows;
}

function wrapTransaction(tx: Transaction, depth: number): Database {
  return {
    kind: 'pglite',
    query: (text, params) => run(tx, text, params),
    // PGlite has one connection and no nested transactions: a nested one is a savepoint.
    async transaction(work) {
      const name = `sp_${depth}`;
      await tx.exec(`SAVEPOINT ${name}`);
      try {
        const result = await work(wrapTransaction(tx, depth + 1));
        await tx.exec(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await tx.exec(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
    close: () => Promise.reject(new Error('close the database, not a transaction')),
  };
}

/**
 * Opens PGlite with its data in `dir` (created when missing), or in memory when `dir` is undefined.
 * One process at a time may open a directory (PGlite has no locking between processes).
 */
export async function openPglite(dir?: string): Promise<Database> {
  const loadDataDir = isFresh(dir) ? await freshTemplate() : undefined;
  const db = await PGlite.create({ dataDir: dir, loadDataDir, parsers: sameResults.parsers });
  return {
    kind: 'pglite',
    query: (text, params) => run(db, text, params),
    transaction: (work) => db.transaction((tx) => work(wrapTransaction(tx, 1))),
    close: async () => {
      if (!db.closed) await db.close();
    },
  };
}
