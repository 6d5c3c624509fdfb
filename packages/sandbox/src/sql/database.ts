/**
 * The one SQL surface every persistent part of the sandbox uses (stores, outbox, rate-limit counters),
 * so PGlite (embedded) and a PostgreSQL server run the same statements through the same code.
 * Parameters are positional ($1, $2, ...); rows come back as plain objects.
 */
/**
 * A write that can run together with like writes of other transactions of its group in one statement:
 * `many` does the work of several items of the same `key` and gives each one's value, or `undefined`
 * when it declined and wrote nothing (a check did not pass for all of them at once).
 */
export type Batchable<I = any> = {
  key: string;
  item: I;
  many: (tx: Database, items: I[]) => Promise<unknown[] | undefined>;
};

export interface Database {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Database) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL: as `transaction`, but a failed statement does not doom the transaction by itself (the
   * driver's `transaction` rolls back at the end if any statement failed, even a caught one): the caller
   * rolls back to its own savepoints, and the commit fails if the transaction was left aborted. For the
   * group commit (group-commit.ts). With `flushLater`, the COMMIT does not wait for the flush of the
   * write-ahead log: the transaction resolves once committed (its locks released), and `flushLater` gets a
   * promise that resolves once the log is on disk past the commit; the caller acknowledges nothing before.
   */
  transactionWithSavepoints?<T>(work: (tx: Database) => Promise<T>, options?: { flushLater?: (flushed: Promise<void>) => void }): Promise<T>;
  /**
   * Inside a group commit's transaction (group-commit.ts): a write that may wait to go with the writes of
   * the transactions after it in one statement (`batch.many`), or run alone (`one`). The caller awaits it
   * as it would await `one()`; absent elsewhere.
   */
  park?<R>(batch: Batchable, one: () => Promise<R>): Promise<R>;
  /** Which engine: for start-up lines and tests, never for branching in handlers. */
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/**
 * A connection inside a transaction that its caller began and ends: `query` runs statements on it, `exec`
 * a savepoint's statement, and a nested transaction is a savepoint (PGlite has no nested transactions,
 * and the group commit begins and commits on a reserved PostgreSQL connection itself).
 */
export function insideTransaction(kind: Database['kind'], query: Database['query'], exec: (statement: string) => Promise<unknown>, depth = 1): Database {
  return {
    kind,
    query,
    async transaction(work) {
      const name = `sp_${depth}`;
      await exec(`SAVEPOINT ${name}`);
      try {
        const result = await work(insideTransaction(kind, query, exec, depth + 1));
        await exec(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await exec(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
    close: () => Promise.reject(new Error('close the database, not a transaction')),
  };
}
