// A PostgreSQL server through postgres.js (docs/dependencies.md says why this driver): a pool of
// connections, each statement with parameters prepared once per connection and reused, several sandbox
// instances on one database. The same SQL and the same JavaScript values as PGlite (result-types.ts).
import postgres from 'postgres';
import { insideTransaction, type Database } from './database.js';
import { plannedEachRun } from './planned-each-run.js';
import { sameResults } from './result-types.js';

type Sql = postgres.Sql<Record<string, never>>;

/**
 * Without parameters: the simple protocol, so a migration may hold several statements.
 *
 * postgres.js queues a query on its connection only once it is awaited or executed, and `await` calls a
 * query's `then` a turn of the microtask queue later: each query is executed here, as it is called, so
 * that queries go to the connection in the order they were asked for (a COMMIT sent right behind a
 * transaction's statements, group-commit.ts `commitAhead`, must follow them).
 */
async function run<Row>(sql: Sql | postgres.TransactionSql | postgres.ReservedSql, text: string, params?: readonly unknown[]): Promise<Row[]> {
  if (params === undefined || params.length === 0) {
    const results = (await sql.unsafe(text).simple().execute()) as unknown as Row[] | Row[][];
    // Several statements give one result per statement: the last one's rows, as PGlite gives.
    return (Array.isArray(results[0]) ? [...((results as Row[][]).at(-1) ?? [])] : [...results]) as Row[];
  }
  return [
    ...(await sql
      .unsafe(text, params as postgres.ParameterOrJSON<never>[], {
        prepare: !text.startsWith(plannedEachRun),
      })
      .execute()),
  ] as Row[];
}

function wrapTransaction(tx: postgres.TransactionSql): Database {
  return {
    // Stryker disable next-line StringLiteral: a transaction's kind is read only as `kind !== 'pglite'` (store.ts lockCompany; group-commit.ts passes it on): any other text takes the same branch.
    kind: 'postgres',
    query: (text, params) => run(tx, text, params),
    transaction: (work) => tx.savepoint((inner) => work(wrapTransaction(inner))) as Promise<never>,
    close: () => Promise.reject(new Error('close the database, not a transaction')),
  };
}

export type PostgresOptions = {
  /** Connections in the pool (postgres.js's default is 10). */
  max?: number;
};

/** Connects to `url` (postgres://user:password@host:port/database) and checks the connection once. */
export async function openPostgres(url: string, { max = 10 }: PostgresOptions = {}): Promise<Database> {
  // The URL's own settings of postgres.js win (e.g. `?idle_timeout=0&max_lifetime=0`: no timers per
  // connection, which tests that fake setTimeout ask for).
  const given = new URLSearchParams(url.split('?')[1] ?? '');
  const sql = postgres(url, {
    max,
    types: sameResults.postgresTypes,
    // The server's notices (e.g. "relation already exists, skipping") are not the sandbox's output.
    onnotice: () => {},
    // Idle connections close after a while, so an idle sandbox holds no server slots for ever.
    ...(given.has('idle_timeout') ? {} : { idle_timeout: 60 }),
    connect_timeout: 10,
  }) as unknown as Sql;
  try {
    // Stryker disable next-line StringLiteral: an empty statement needs a connection as much: the open fails on an unreachable server and succeeds on a reachable one either way (database.test.ts).
    await sql`select 1`;
  } catch (error) {
    // Stryker disable next-line ObjectLiteral: after the failed first statement no query is pending, so end() returns at once with or without its timeout.
    await sql.end({ timeout: 0 });
    throw error;
  }
  return {
    kind: 'postgres',
    query: (text, params) => run(sql, text, params),
    transaction: (work) => sql.begin((tx) => work(wrapTransaction(tx))) as Promise<never>,
    async transactionWithSavepoints(work, { flushLater } = {}) {
      const conn = await sql.reserve();
      let released = false;
      const release = () => {
        if (!released) conn.release();
        // Stryker disable next-line BooleanLiteral: release is called once on every path (from `finally` without a flush barrier, else once from the barrier's settling), so the flag is never read as set.
        released = true;
      };
      /** The flush barrier sent behind the COMMIT: the connection is released once it has answered. */
      let flushed: Promise<void> | undefined;
      try {
        // Sent without waiting, with the work's first statement (one write to the socket and one wake-up
        // of the server, not two, for a group whose first statements wait in `park`): they go in the same
        // round trip. With `flushLater` the commit returns before the flush, so the company's lock is no
        // longer held through it (group-commit.ts), and the caller acknowledges nothing before `flushLater`'s
        // promise.
        let begun: Promise<unknown> | undefined;
        const begin = () => {
          if (begun) return;
          begun = flushLater ? conn.unsafe('begin; set local synchronous_commit = off').simple() : conn.unsafe('begin');
          begun.catch(() => {});
        };
        /** The COMMIT, once sent. */
        let ending: Promise<unknown> | undefined;
        const end = () => {
          // postgres.js sends a query only once it is awaited or executed: the COMMIT is sent now, so that
          // the barrier below follows it on the connection (sent first, the barrier ran inside the group's
          // transaction, where synchronous_commit is off, and waited for no flush at all).
          ending = conn.unsafe('commit').execute();
          ending.catch(() => {});
          if (flushLater) {
            // Right behind the COMMIT on the connection, in the same round trip: a transaction that writes a
            // record to the write-ahead log (a logical message, read by no one: no table, no row lock) and
            // commits synchronously, so it returns once the log is on disk up to its record, past the commit.
            flushed = conn
              .unsafe(`select pg_logical_emit_message(true, 'idv-sandbox', '')`)
              .simple()
              .then(() => {});
            flushed.then(release, release);
          }
        };
        const tx = Object.assign(
          insideTransaction(
            // Stryker disable next-line StringLiteral: as in wrapTransaction, read only as `kind !== 'pglite'`.
            'postgres',
            (text, params) => (begin(), run(conn, text, params)),
            (statement) => (begin(), conn.unsafe(statement).execute()),
          ),
          {
            /**
             * The COMMIT (and the barrier) sent now, right behind the statements already sent, in the same
             * round trip: the work sends no other statement after it (group-commit.ts `commitAhead`).
             */
            commitAhead: () => {
              if (ending) return;
              begin();
              end();
            },
          },
        );
        let result;
        try {
          result = await work(tx);
          // No statement: nothing to commit, nothing to flush.
          if (!begun) return result;
          await begun;
        } catch (error) {
          if (begun && !ending) await conn.unsafe('rollback').catch(() => {});
          // Committed ahead: the COMMIT decides, the work's failure is the caller's answer.
          if (ending) await ending.catch(() => {});
          throw error;
        }
        if (!ending) end();
        // A transaction left aborted (a failed statement not rolled back to a savepoint) ends in ROLLBACK.
        const ended = await ending!;
        if ((ended as unknown as { command?: string }).command !== 'COMMIT') throw new Error(`the transaction was rolled back (${(ended as unknown as { command?: string }).command})`);
        if (flushed) flushLater!(flushed);
        return result;
      } finally {
        if (!flushed) release();
      }
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
