/**
 * The one SQL surface every persistent part of the sandbox uses (stores, outbox, rate-limit counters),
 * so PGlite (embedded) and a PostgreSQL server run the same statements through the same code.
 * Parameters are positional ($1, $2, ...); rows come back as plain objects.
 */
export interface Database {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Database) => Promise<T>): Promise<T>;
  /** Which engine: for start-up lines and tests, never for branching in handlers. */
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}
