/**
 * PGlite in a worker thread, behind the same `Database` surface: the main thread serves HTTP while the
 * worker parses, plans and runs the statements in WebAssembly, so on two cores the sandbox uses both.
 * In the main thread every statement of a commit held the event loop: requests that arrived meanwhile
 * were read only after it, so the next group commit was small and the loop idle between (a CPU profile
 * under wrk: 21 % idle with PGlite 21 % of the samples; docs/benchmarks.md).
 *
 * The worker runs a message loop over one PGlite: `query` (with parameters through PGlite's `query`,
 * without through `exec`, as pglite.ts did in the main thread), `begin` / `commit` / `rollback` of a
 * transaction held open between messages (PGlite runs nothing else meanwhile, as in the main thread),
 * and `close`. Messages are handled in order, so a transaction's statements sent one after the other
 * run in that order. A commit is answered once PGlite's COMMIT returned, i.e. once its write-ahead log
 * is written to the file (see pglite.ts on what that guarantees).
 *
 * The worker's code is a string evaluated by `new Worker(..., { eval: true })`: a worker file next to
 * this one would be TypeScript under the tests and JavaScript in dist/, and it needs only PGlite.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { insideTransaction, type Database } from './database.js';

type Message =
  | { op: 'query'; text: string; params?: readonly unknown[]; tx?: number }
  | { op: 'exec'; text: string; tx: number }
  | { op: 'chain'; text: string; afterPrevious: boolean } | { op: 'begin' | 'commit' | 'rollback'; tx: number } | { op: 'close' };
type Reply = { id: number; value?: unknown; error?: { message: string; fields: Record<string, unknown> } };

/**
 * Each worker database's commit chain (pglite-commit.ts, `commitChain`): a message of statements posted at
 * once; with `afterPrevious`, written only if the chain's previous message was (else it rejects, unwritten).
 */
export const workerChains: WeakMap<Database, (text: string, afterPrevious: boolean) => Promise<void>> = new WeakMap();

/** The fields of a PostgreSQL error kept across the thread (the code says which rule failed, e.g. 23505). */
const errorFields = ['severity', 'code', 'detail', 'hint', 'position', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine', 'where'];

// Plain JavaScript (CommonJS, evaluated): PGlite's module by URL, its int8 parser as result-types.ts's;
// bytea comes back as a Uint8Array (a Buffer would arrive as one anyway) and the main thread makes it a Buffer.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const fields = ${JSON.stringify(errorFields)};
const wire = (error) => {
  const out = { message: String(error && error.message || error), fields: {} };
  for (const name of fields) if (error && typeof error[name] === 'string') out.fields[name] = error[name];
  return out;
};
const parseInt8 = (text) => {
  const value = BigInt(text);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
};
const parseBytea = (text) => { const b = Buffer.from(text.slice(2), 'hex'); return new Uint8Array(b.buffer, b.byteOffset, b.length); };
(async () => {
  let db;
  try {
    const { PGlite } = await import(workerData.pglite);
    db = await PGlite.create({ dataDir: workerData.dir, loadDataDir: workerData.load ? new Blob([workerData.load]) : undefined, parsers: { 20: parseInt8, 17: parseBytea } });
  } catch (error) {
    parentPort.postMessage({ id: 0, error: wire(error) });
    return;
  }
  parentPort.postMessage({ id: 0 });
  const run = async (on, text, params) => {
    if (params === undefined || params.length === 0) {
      const results = await on.exec(text);
      return (results.at(-1) && results.at(-1).rows) || [];
    }
    return (await on.query(text, params)).rows;
  };
  /** Open transactions: their PGlite transaction once begun, and how to end them. */
  const open = new Map();
  /** Whether the last 'chain' message succeeded (pglite-commit.ts, commitChain). */
  let chain = Promise.resolve(true);
  const handle = async (m) => {
    switch (m.op) {
      case 'query':
        return run(m.tx === undefined ? db : await open.get(m.tx).tx, m.text, m.params);
      case 'exec':
        return (await open.get(m.tx).tx).exec(m.text).then(() => undefined);
      case 'chain': {
        // Run at once, or (afterPrevious) only once the chain's last message succeeded: a commit that built
        // on the one before it is never written without it.
        const previous = chain;
        const written = m.afterPrevious
          ? previous.then((ok) => {
              if (!ok) throw new Error('not written: the commit before it failed');
              return db.exec(m.text);
            })
          : db.exec(m.text);
        chain = written.then(() => true, () => false);
        await written;
        return undefined;
      }
      case 'begin': {
        let started, failed, end;
        const entry = { tx: new Promise((resolve, reject) => ((started = resolve), (failed = reject))), end: new Promise((resolve, reject) => (end = { resolve, reject })) };
        entry.ending = end;
        entry.done = db.transaction(async (tx) => { started(tx); await entry.end; });
        // A failed BEGIN ends the transaction before it starts: its statements fail with the same error
        // (once started, this does nothing).
        entry.done.catch((error) => failed(error));
        entry.tx.catch(() => {});
        open.set(m.tx, entry);
        return undefined;
      }
      case 'commit':
      case 'rollback': {
        const entry = open.get(m.tx);
        open.delete(m.tx);
        if (m.op === 'commit') entry.ending.resolve();
        else entry.ending.reject(new Error('rolled back'));
        try {
          await entry.done;
        } catch (error) {
          if (m.op === 'commit') throw error;
        }
        return undefined;
      }
      case 'close':
        // What was asked before the close is answered first (as PGlite in one thread would have run it).
        await Promise.allSettled([...inFlight]);
        await db.close();
        return undefined;
    }
  };
  const inFlight = new Set();
  parentPort.on('message', (m) => {
    const done = handle(m);
    inFlight.add(done);
    done.finally(() => inFlight.delete(done)).catch(() => {});
    done.then(
      (value) => parentPort.postMessage({ id: m.id, value }),
      (error) => parentPort.postMessage({ id: m.id, error: wire(error) }),
    );
  });
})();
`;

/** PGlite's ES module, by URL: the worker imports it itself. */
function pgliteUrl(): string {
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return pathToFileURL(join(dirname(main), 'index.js')).href;
}

/** An error from the worker as the main thread's code expects it: a message and PostgreSQL's fields. */
function rebuilt(error: NonNullable<Reply['error']>): Error {
  return Object.assign(new Error(error.message), error.fields);
}

/** Buffers where the worker sent bytea as Uint8Array (structured clone drops Buffer's class). */
function withBuffers<Row>(rows: Row[]): Row[] {
  for (const row of rows as Record<string, unknown>[]) {
    for (const key in row) {
      const value = row[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value)) row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return rows;
}

/**
 * Opens PGlite in a worker thread with its data in `dir` (or in memory), loaded from `load` (a tar of a
 * data directory) when given. Resolves once PGlite has started.
 */
export async function openPgliteWorker(dir: string | undefined, load?: Blob): Promise<Database> {
  const loadBytes = load ? await load.arrayBuffer() : undefined;
  const worker = new Worker(workerSource, { eval: true, workerData: { dir, load: loadBytes, pglite: pgliteUrl() }, transferList: loadBytes ? [loadBytes] : [] });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let nextTx = 1;
  let dead: Error | undefined;
  let closed = false;
  let closing: Promise<void> | undefined;
  // The worker keeps the process alive only while a call waits for it (as PGlite in the main thread did not).
  worker.unref();
  const settleAll = (error: Error) => {
    dead ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  const started = new Promise<void>((resolve, reject) => {
    worker.once('message', (reply: Reply) => (reply.error ? reject(rebuilt(reply.error)) : resolve()));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the PGlite worker stopped (exit code ${code})`)));
  });
  worker.ref();
  try {
    await started;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.on('message', (reply: Reply) => {
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    if (!pending.size) worker.unref();
    if (reply.error) call.reject(rebuilt(reply.error));
    else call.resolve(reply.value);
  });
  worker.on('error', (error) => settleAll(error));
  worker.on('exit', (code) => settleAll(new Error(closed ? 'the database is closed' : `the PGlite worker stopped (exit code ${code})`)));
  // Only now: adding a 'message' listener refs the worker's port again, which kept the process alive after
  // the open until the first call's answer.
  worker.unref();

  const call = <T>(request: Message): Promise<T> => {
    if (closed) return Promise.reject(new Error('the database is closed'));
    if (dead) return Promise.reject(dead);
    // Stryker disable next-line UpdateOperator: counting down keeps the IDs distinct (the start's answer, ID 0, has its own listener).
    const id = nextId++;
    if (!pending.size) worker.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  };
  const query = async <Row>(text: string, params?: readonly unknown[], tx?: number): Promise<Row[]> => withBuffers(await call<Row[]>({ op: 'query', text, params, tx }));

  const database: Database = {
    kind: 'pglite',
    query: (text, params) => query(text, params),
    async transaction(work) {
      // Stryker disable next-line UpdateOperator: counting down keeps the transactions' IDs distinct.
      const tx = nextTx++;
      // Not awaited: the worker handles messages in order, so the first statement follows the BEGIN at once.
      const begun = call<void>({ op: 'begin', tx });
      begun.catch(() => {});
      let result;
      try {
        result = await work(
          insideTransaction(
            'pglite',
            (text, params) => query(text, params, tx),
            (statement) => call({ op: 'exec', text: statement, tx }),
          ),
        );
      } catch (error) {
        await call({ op: 'rollback', tx }).catch(() => {});
        throw error;
      }
      await begun;
      await call({ op: 'commit', tx });
      return result;
    },
    close() {
      closing ??= (async () => {
        try {
          if (!dead) await call({ op: 'close' });
        } finally {
          closed = true;
          await worker.terminate();
        }
      })();
      return closing;
    },
  };
  // Posted at once: the worker runs messages in order, so the next commit waits there, not for a round trip.
  workerChains.set(database, (text, afterPrevious) => call<void>({ op: 'chain', text, afterPrevious }));
  return database;
}
