/**
 * The one SQL surface every persistent part of the sandbox uses (stores, outbox, rate-limit counters),
 * so PGlite (embedded) and a PostgreSQL server run the same statements through the same code.
 * Parameters are positional ($1, $2, ...); rows come back as plain objects.
 */
export interface Database {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Database) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL: as `transaction`, but a failed statement does not doom the transaction by itself (the
   * driver's `transaction` rolls back at the end if any statement failed, even a caught one): the caller
   * rolls back to its own savepoints, and the commit fails if the transaction was left aborted. For the
   * group commit (group-commit.ts).
   */
  transactionWithSavepoints?<T>(work: (tx: Database) => Promise<T>): Promise<T>;
  /** Which engine: for start-up lines and tests, never for branching in handlers. */
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}
