/**
 * PGlite's store: the SQL store's tables, read from a memory mirror. One process holds a PGlite directory
 * (a lock file, store-choice.ts), so nothing else writes the tables and memory can answer every read:
 * at open, every row is loaded into memory collections (store.ts: the same indexes, caps and byte budget).
 *
 * A company's transaction runs under its mutex against memory, its writes buffered in an overlay (what
 * the transaction reads includes its own writes; nobody else sees them). When the work resolves, the
 * buffered writes go to PGlite; transactions that finish while a PGlite commit is in flight are written
 * together in the next one (group commit: one commit, one flush to disk, for many requests). Only when
 * that commit resolves are the writes applied to memory and the caller answered, so a 200 is on disk,
 * and a failed commit (or a throw in the work) leaves memory as it was. With PGlite in a worker thread the
 * next group of new records is sent while one is being written (`pipeline`), on condition that that one
 * is written (pglite-commit.ts, commitChain): a group may hold writes that read the one before it. Unique keys, caps and the budget
 * are checked in memory under the mutex (exact: one process); the SQL writes check them again.
 *
 * PostgreSQL, shared by instances, keeps the direct SQL store (store.ts): no instance could mirror it.
 */
import { StoreFull } from '../errors.js';
import type { Limits } from '../limits.js';
import { collectionNames, collectionSpecs, type Collections, type State } from '../state.js';
import { createBudget, Duplicate, keyedMutex, memoryCollection, type Collection, type CollectionOptions, type MemoryCollection } from '../store.js';
import type { Database } from './database.js';
import { migrate } from './migrations.js';
import { commitChain, freshPutsText, prepareFreshPuts, writeFreshPuts, type FreshPut } from './pglite-commit.js';
import { decode, putBatch, putChecked, sqlCollectionsIn, sqlState, tableOf, unsafe, usageTally, type UsageTally } from './store.js';

type Name = keyof Collections;
/**
 * One buffered write: a record put (`record`) or deleted (undefined), in the order written; `size`, the
 * put record's size as its put worked it out (each later transaction of the company replays the write).
 */
type Op = { name: Name; company: string; id: string; record: unknown; size?: number };
type Pending = { record: unknown; size: number; existed: boolean; moved: boolean };

type Mirror<T> = { memory: MemoryCollection<T>; options: CollectionOptions<T>; idOf: WeakMap<object, string> };

export type MirrorOptions = {
  /** Called with each group commit's size: for tests and benches. */
  onCommit?: (transactions: number) => void;
  /** The most transactions written in one PGlite commit (default 100). */
  maxGroup?: number;
  /**
   * The most writes of one company queued or being committed (default 100): its next transaction waits
   * until the oldest is committed. Each transaction reads its company's unconfirmed writes on top of
   * memory, so without a bound a burst of one company's writes costs each request more than the last
   * (3,000 parallel writes kept the loop busy for seconds and cut requests).
   */
  maxQueued?: number;
  /**
   * The most group commits sent and not yet answered (default: 2 with PGlite in a worker thread, where the
   * worker then goes from one to the next without waiting for this thread; 1 in this thread).
   */
  pipeline?: number;
};

export function mirroredState(db: Database, limits: Limits, mirrorOptions: MirrorOptions = {}): State {
  const specs = collectionSpecs(limits);
  const budget = createBudget(limits.maxBytesPerCompany);
  const mirrors = Object.fromEntries(
    collectionNames.map((name) => [name, { memory: memoryCollection({ ...(specs[name] as CollectionOptions<unknown>), budget }), options: specs[name], idOf: new WeakMap() }]),
  ) as { [K in Name]: Mirror<unknown> };
  const exclusive = keyedMutex();
  /** Index keys of buffered records (a record handed to `put` is not changed until it is committed). */
  const keyCache = new WeakMap<object, Map<string, readonly string[]>>();
  const direct = sqlState(db, limits);

  /** Stores a committed (or loaded) record in memory, remembering its ID (lists hand out records, not IDs). */
  const apply = async (op: Op) => {
    const mirror = mirrors[op.name];
    if (op.record === undefined) await mirror.memory.delete(op.company, op.id);
    else {
      await mirror.memory.put(op.company, op.id, op.record);
      if (typeof op.record === 'object' && op.record !== null) mirror.idOf.set(op.record, op.id);
    }
  };

  let loaded = false;
  let loading: Promise<void> | undefined;
  const load = async () => {
    await migrate(db);
    // Asked at once: with PGlite in a worker thread, one wait for the thread instead of one per table.
    const tables = await Promise.all(
      collectionNames.map((name) => db.query<{ id: string; company: string; data: string; bytes: Uint8Array | null }>(`select id, company, data::text as data, bytes from ${tableOf[name]} order by seq`)),
    );
    for (const [i, name] of collectionNames.entries()) {
      // A row the current limits refuse (they were lowered) still mirrors the table: loaded as it is.
      for (const row of tables[i]!) await applyLoaded({ name, company: row.company, id: unsafe(row.id), record: decode(row) });
    }
    loaded = true;
  };
  const applyLoaded = async (op: Op) => {
    try {
      await apply(op);
    } catch (error) {
      if (!(error instanceof StoreFull || error instanceof Duplicate)) throw error;
      process.emitWarning(`the PGlite store holds a record the limits refuse (${op.name} ${op.id}): kept on disk, not served`);
    }
  };
  const ready = () => (loaded ? undefined : (loading ??= load()));

  // Group commit: one PGlite transaction at a time (or `pipeline` of them sent, written in order); what
  // arrives meanwhile waits and goes in the next one (at most `maxGroup` transactions' writes in one: the
  // loop turns between commits).
  const maxGroup = mirrorOptions.maxGroup ?? 100;
  const maxQueued = mirrorOptions.maxQueued ?? 100;
  /** The longest stretch of a commit's statements between two turns of the event loop (ms). */
  const turnMs = 10;
  /** The most records in one statement of a commit. */
  const maxBatch = 100;
  type Write = { kind: 'write'; company: string; ops: Op[]; after?: Write; failed?: boolean; settled: Promise<void>; done: (error?: unknown) => void };
  type Job = Write | { kind: 'clear'; company?: string; done: (error?: unknown) => void };
  const queue: Job[] = [];
  /** Per company, its writes queued or in a commit, oldest first: the company's next transaction builds on them. */
  const unconfirmed = new Map<string, Write[]>();
  let flushing: Promise<void> | undefined;
  /**
   * The writes of `ops` in order: a run of puts of one kind of record (distinct IDs, no file bytes) in one
   * statement (putBatch), anything else one by one.
   */
  const writeOps = async (tx: Database, ops: Op[], usage: UsageTally, turn: () => Promise<void>) => {
    const sql = sqlCollectionsIn(tx, limits);
    const batchable = (op: Op) => op.record !== undefined && !((op.record as { bytes?: unknown }).bytes instanceof Uint8Array);
    for (let i = 0; i < ops.length; ) {
      const op = ops[i]!;
      if (batchable(op)) {
        const run: Op[] = [op];
        const ids = new Set([op.id]);
        while (i + run.length < ops.length && run.length < maxBatch) {
          const next = ops[i + run.length]!;
          if (next.name !== op.name || !batchable(next) || ids.has(next.id)) break;
          run.push(next);
          ids.add(next.id);
        }
        if (run.length > 1) {
          // New records only (none in memory, which holds every committed one): the cheaper insert.
          const memory = mirrors[op.name].memory;
          let fresh = true;
          for (const { company, id } of run) if ((await memory.ownerOf(id)) !== undefined || (await memory.get(company, id)) !== undefined) fresh = false;
          // Replaced records of a kind with unique keys go one by one: in one statement, a unique key that
          // one record of the run gives up and a later one takes clashes (the statement inserts the new key
          // row while the old one is still there), where memory, which checked them in order, took both.
          if (fresh || !(specs[op.name] as CollectionOptions<unknown>).unique?.length) {
            await putBatch(tx, op.name, specs[op.name] as CollectionOptions<unknown>, run, usage, { fresh });
            i += run.length;
            await turn();
            continue;
          }
          for (const one of run) {
            await putChecked(tx, one.name, specs[one.name] as CollectionOptions<unknown>, one.company, one.id, one.record, usage);
            await turn();
          }
          i += run.length;
          continue;
        }
      }
      const collection = sql[op.name] as Collection<unknown>;
      if (op.record === undefined) await collection.delete(op.company, op.id);
      else await putChecked(tx, op.name, specs[op.name] as CollectionOptions<unknown>, op.company, op.id, op.record, usage);
      i++;
      await turn();
    }
  };
  /**
   * The group's writes as one message of prepared statements (pglite-commit.ts) when they are all new
   * records (memory holds none of their IDs, none has file bytes, no ID twice): the usual commit of a
   * burst of adds. Undefined otherwise.
   */
  const freshPuts = async (ops: Op[]): Promise<FreshPut[] | undefined> => {
    const ids = new Set<string>();
    for (const op of ops) {
      if (op.record === undefined || (op.record as { bytes?: unknown }).bytes instanceof Uint8Array || ids.has(op.id)) return undefined;
      ids.add(op.id);
      const memory = mirrors[op.name].memory;
      if ((await memory.ownerOf(op.id)) !== undefined || (await memory.get(op.company, op.id)) !== undefined) return undefined;
    }
    return ops as FreshPut[];
  };
  /**
   * One PGlite transaction for the writes of `jobs`. With `fast`, new records go as one message first; if
   * that fails (a row on disk that memory does not serve, or any error), or without `fast` (`send` found
   * it was not for one message, or its message failed), statement by statement, which handles every case
   * and names the error.
   */
  const commit = async (jobs: Write[], fast: boolean) => {
    const ops = jobs.flatMap((job) => job.ops);
    const fresh = fast ? await freshPuts(ops) : undefined;
    if (fresh) {
      try {
        await prepareFreshPuts(db, fresh);
        await writeFreshPuts(db, fresh, specs as Record<string, CollectionOptions<unknown>>);
        return;
      } catch {
        // Written again below, where the error (if it is one) is thrown.
      }
    }
    await commitByStatements(ops);
  };
  /** The writes of `ops` statement by statement in one PGlite transaction, their usage added up once at the end. */
  const commitByStatements = (ops: Op[]) =>
    db.transaction(async (tx) => {
      const usage = usageTally();
      let since = performance.now();
      // PGlite in this thread (`openPglite(dir, { worker: false })`): its statements resolve in microtasks: without a turn of the loop now
      // and then, a commit of a burst's group keeps the server from accepting connections (its listen
      // queue overflows and clients' connects time out) and from reading requests.
      const turn = async () => {
        if (performance.now() - since <= turnMs) return;
        await new Promise<void>((resolve) => setImmediate(resolve));
        since = performance.now();
      };
      await writeOps(tx, ops, usage, turn);
      await usage.write(tx);
    });
  const forget = (job: Write) => {
    const jobs = unconfirmed.get(job.company)!;
    jobs.splice(jobs.indexOf(job), 1);
    if (!jobs.length) unconfirmed.delete(job.company);
  };
  /** The commit resolved: memory gets the writes, then the caller its answer. */
  const settle = async (job: Write) => {
    try {
      for (const op of job.ops) await apply(op);
      job.done();
    } catch (error) {
      // Memory refused what the database took: the checks differ (a bug); the caller is told.
      job.done(error);
    } finally {
      forget(job);
    }
  };
  const fail = (job: Write, error: unknown) => {
    job.failed = true;
    forget(job);
    job.done(error);
  };
  // A write queued after the drain's last look at the queue but before it ended found it still running:
  // a new drain takes it.
  const flush = (): Promise<void> =>
    (flushing ??= drain().finally(() => {
      flushing = undefined;
      if (queue.length) void flush();
    }));
  /** A group whose commit of new records was sent and not yet answered (oldest first). */
  type Flight = { group: Write[]; ids: Set<string>; written: Promise<void> };
  const flights: Flight[] = [];
  const chain = commitChain(db);
  const depth = Math.max(1, mirrorOptions.pipeline ?? chain.depth);
  /** Set when a flight failed with later ones still out: those are not written and wait in `again`. */
  let broken = false;
  const again: Write[] = [];
  /** Set while the queue is empty and a flight is out: called by `enqueue`. */
  let wake: (() => void) | undefined;
  /**
   * Sends the group's commit when its writes are all new records (freshPuts) and none of their IDs is in
   * a flight (memory learns of a flight's records only when it lands); after a flight, on condition that
   * the flight is written (commitChain), since the group may have read the flight's writes. False when
   * the group is to be committed statement by statement.
   */
  const send = async (group: Write[]): Promise<boolean> => {
    const fresh = await freshPuts(group.flatMap((job) => job.ops));
    if (!fresh || fresh.some((op) => flights.some((flight) => flight.ids.has(op.id)))) return false;
    let text: string;
    try {
      await prepareFreshPuts(db, fresh);
      text = freshPutsText(fresh, specs as Record<string, CollectionOptions<unknown>>);
    } catch {
      return false;
    }
    // One message without BEGIN: PostgreSQL runs a message of several statements as one transaction.
    const written = chain.send(text, flights.length > 0);
    written.catch(() => {}); // answered when it lands
    flights.push({ group, ids: new Set(fresh.map((op) => op.id)), written });
    return true;
  };
  /** The oldest flight's answer: its writes go to memory and its callers are answered, or it failed. */
  const land = async () => {
    const flight = flights.shift()!;
    let failed = false;
    try {
      await flight.written;
    } catch {
      failed = true;
    }
    if (!failed) {
      mirrorOptions.onCommit?.(flight.group.length);
      for (const job of flight.group) await settle(job);
    } else if (broken) again.push(...flight.group);
    else {
      // The later flights were sent on condition that this one is written: none is. They are committed
      // again, in order, once this one is settled (one of theirs may have built on one of its writes).
      broken = flights.length > 0;
      await commitGroup(flight.group, false);
    }
    if (broken && !flights.length) {
      queue.unshift(...again.splice(0));
      broken = false;
    }
  };
  /** The group in one PGlite transaction (`fast`: trying its one message first), or each write on its own when that fails. */
  const commitGroup = async (group: Write[], fast: boolean) => {
    try {
      await commit(group, fast);
      mirrorOptions.onCommit?.(group.length);
      for (const job of group) await settle(job);
      return;
    } catch (error) {
      if (group.length === 1) {
        fail(group[0]!, error);
        return;
      }
    }
    // One transaction's writes failed and took the group with it: each on its own, each its own answer.
    for (const job of group) {
      // A write built on a failed one of its company (it read what never happened) fails with it.
      if (job.after?.failed) {
        fail(job, new Error('an earlier write of this company failed'));
        continue;
      }
      try {
        await commit([job], true);
        mirrorOptions.onCommit?.(1);
        await settle(job);
      } catch (error) {
        fail(job, error);
      }
    }
  };
  const drain = async () => {
    while (queue.length || flights.length) {
      if (flights.length >= depth || broken) {
        await land();
        continue;
      }
      if (!queue.length) {
        // Room for another flight: whichever comes first, a write to send or the oldest flight's answer.
        const arrived = new Promise<boolean>((resolve) => (wake = () => resolve(true)));
        const answered = flights[0]!.written.then(
          () => false,
          () => false,
        );
        const write = await Promise.race([arrived, answered]);
        wake = undefined;
        if (!write) await land();
        continue;
      }
      // A turn of the event loop before each commit: PGlite in this thread (`worker: false`) works here and its statements resolve
      // in microtasks, so back-to-back commits would keep the loop from reading the requests of a burst
      // until the server's header and request timeouts cut them. Bounded groups keep each turn short.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const first = queue[0]!;
      if (first.kind === 'clear') {
        // A reset comes after every write before it.
        if (flights.length) {
          await land();
          continue;
        }
        queue.shift();
        try {
          await direct.clear(first.company);
          for (const name of collectionNames) mirrors[name].memory.clear(first.company);
          budget.clear(first.company);
          first.done();
        } catch (error) {
          first.done(error);
        }
        continue;
      }
      const group: Write[] = [];
      while (queue[0]?.kind === 'write' && group.length < maxGroup) {
        const job = queue.shift() as Write;
        // A write built on a failed one of its company (it read what never happened) fails with it.
        if (job.after?.failed) fail(job, new Error('an earlier write of this company failed'));
        else group.push(job);
      }
      if (!group.length || (await send(group))) continue;
      if (flights.length) {
        // Statement by statement only after the flights, in order: back to the queue until they landed.
        queue.unshift(...group);
        await land();
        continue;
      }
      await commitGroup(group, false);
    }
  };
  const enqueue = (job: { kind: 'write'; company: string; ops: Op[] } | { kind: 'clear'; company?: string }) =>
    new Promise<void>((resolve, reject) => {
      let settledNow!: () => void;
      const settled = new Promise<void>((resolve) => (settledNow = resolve));
      const done = (error?: unknown) => (settledNow(), error === undefined ? resolve() : reject(error));
      // Every write made with the same fields in the same order: one object shape for the queue's code.
      let queued: Job;
      if (job.kind === 'write') {
        const jobs = unconfirmed.get(job.company);
        const write: Write = { kind: 'write', company: job.company, ops: job.ops, after: jobs?.at(-1), failed: false, settled, done };
        if (jobs) jobs.push(write);
        else unconfirmed.set(job.company, [write]);
        queued = write;
      } else queued = { kind: 'clear', company: job.company, done };
      queue.push(queued);
      wake?.();
      void flush();
    });

  /**
   * The company's mutex covers the work and the queueing, not the commit: its next transaction starts at
   * once, on top of the writes still being committed (so a request per company need not wait a commit
   * for the one before it, and its writes join the same group commit when they can). Its answer still
   * waits for its own commit, which comes after theirs.
   */
  const transaction = async <T>(company: string, work: (tx: Collections) => Promise<T>): Promise<T> => {
    await ready();
    let committed: Promise<void> | undefined;
    let seen: Write[] = [];
    const result = await exclusive(company, async () => {
      // Backpressure: the company's writes wait here (a promise each, no work) while too many are unconfirmed.
      for (let queued = unconfirmed.get(company); queued && queued.length >= maxQueued; queued = unconfirmed.get(company)) await queued[0]!.settled;
      const buffer = overlay(company);
      seen = [...(unconfirmed.get(company) ?? [])];
      for (const job of seen) for (const op of job.ops) await buffer.replay(op);
      const result = await work(buffer.collections);
      if (buffer.ops.length) committed = enqueue({ kind: 'write', company, ops: buffer.ops });
      return result;
    });
    // The same promise a transaction without writes would wait for: the company's earlier writes.
    if (committed) await committed;
    else if (seen.length) {
      // It read writes still being committed: it answers once they are on disk, and fails if one failed.
      await Promise.all(seen.map((job) => job.settled));
      if (seen.some((job) => job.failed)) throw new Error('an earlier write of this company failed');
    }
    return result;
  };

  /** A transaction's collections: each view made on first use (`madeBy`, the transaction's own maker). */
  const madeBy = Symbol('views');
  const lazyViews = Object.defineProperties(
    {},
    Object.fromEntries(
      // Stryker disable next-line BooleanLiteral: nothing enumerates a transaction's collections; each is read by name
      collectionNames.map((name) => [name, { enumerable: true, get(this: { [madeBy]: (name: Name) => Collection<unknown> }) { return this[madeBy](name); } }]),
    ),
  );

  /** A transaction's view: memory with its own buffered writes on top, checked as memory would check them. */
  const overlay = (company: string) => {
    const ops: Op[] = [];
    const pending = new Map<Name, Map<string, Pending>>();
    const replays = new Map<Name, (op: Op) => Promise<void>>();
    let pendingBytes = 0;
    const view = <T>(name: Name): Collection<T> => {
      const mirror = mirrors[name] as Mirror<T>;
      const { memory, options, idOf } = mirror;
      // Stryker disable next-line ArrowFunction,ArrayDeclaration: every collection spec has a sizeOf; a made-up unique index name has no keys, so it finds no duplicate
      const { maxPerCompany = Infinity, sizeOf = () => 0, indexes = {}, unique = [] } = options;
      const mine = (c: string) => (c === company ? pending.get(name) : undefined);
      /** A buffered record's keys in an index, worked out once per record (every later transaction of a burst scans it). */
      const keysOf = (index: string, record: T): readonly string[] => {
        let byIndex = keyCache.get(record as object);
        if (!byIndex) keyCache.set(record as object, (byIndex = new Map()));
        let keys = byIndex.get(index);
        // Stryker disable next-line OptionalChaining,ArrayDeclaration: every index name asked (unique indexes, a handler's find) exists
        if (!keys) byIndex.set(index, (keys = indexes[index]?.(record) ?? []));
        return keys;
      };
      /** The company's records in order, with the buffered writes applied (only when there are some). */
      const entries = async (c: string): Promise<{ id: string; record: T }[]> => {
        const writes = mine(c);
        const base = (await memory.list(c)).map((record) => ({ id: idOf.get(record as object)!, record }));
        if (!writes?.size) return base;
        const out: { id: string; record: T }[] = [];
        for (const entry of base) {
          const write = writes.get(entry.id);
          if (!write) out.push(entry);
          else if (write.record !== undefined && !write.moved) out.push({ id: entry.id, record: write.record as T });
        }
        for (const [id, write] of writes) if (write.record !== undefined && (!write.existed || write.moved)) out.push({ id, record: write.record as T });
        return out;
      };
      const copy = (record: T) => structuredClone(record);
      const get = async (c: string, id: string) => {
        const write = mine(c)?.get(id);
        if (write) return write.record as T | undefined;
        const stored = await memory.get(c, id);
        return stored === undefined ? undefined : copy(stored);
      };
      const ownerOf = async (id: string) => {
        const write = pending.get(name)?.get(id);
        if (write) return write.record === undefined ? undefined : company;
        return memory.ownerOf(id);
      };
      // Handed-out records are copies: a handler that changes one and then fails leaves memory as it was.
      const list = async (c: string) => (await entries(c)).map((e) => copy(e.record));
      // Memory's count and index with the buffered writes on top, not a walk through every record: a
      // burst of one company's writes replays the ones still being committed into each transaction.
      const count = async (c: string) => {
        const writes = mine(c);
        let n = await memory.count(c);
        // Stryker disable next-line ArrayDeclaration: a string element has no record and no existed flag, so it changes no count
        for (const write of writes?.values() ?? []) {
          if (write.record !== undefined && !write.existed) n++;
          else if (write.record === undefined && write.existed) n--;
        }
        return n;
      };
      /** The IDs holding `key` in index `index`, this transaction's writes included. */
      const holders = async (c: string, index: string, key: string) => {
        const writes = mine(c);
        const ids = (await memory.find(c, index, key)).map((record) => idOf.get(record as object)!).filter((id) => !writes?.has(id));
        // Stryker disable next-line ArrayDeclaration: a string destructures to characters, whose `record` is undefined: skipped
        for (const [id, write] of writes ?? []) if (write.record !== undefined && keysOf(index, write.record as T).includes(key)) ids.push(id);
        return ids;
      };
      const find = async (c: string, index: string, key: string) => {
        const writes = mine(c);
        if (!writes?.size) return (await memory.find(c, index, key)).map(copy);
        const matches = (record: T) => keysOf(index, record).includes(key);
        // Memory's matches that no buffered write touches, then the buffered records put (or moved) at the end.
        const appended: T[] = [];
        for (const write of writes.values()) {
          if (write.record === undefined || !matches(write.record as T)) continue;
          // A record changed in its place: the order of the whole list tells where it goes (rare).
          if (write.existed && !write.moved) return (await entries(c)).filter((e) => matches(e.record)).map((e) => copy(e.record));
          appended.push(write.record as T);
        }
        const base = (await memory.find(c, index, key)).filter((record) => !writes.has(idOf.get(record as object)!));
        return [...base, ...appended].map(copy);
      };
      const writesOf = () => {
        let writes = pending.get(name);
        if (!writes) pending.set(name, (writes = new Map()));
        return writes;
      };
      const put = async (c: string, id: string, record: T) => {
        if (c !== company) throw new Error('a transaction of one company wrote another company\'s record');
        const old = mine(c)?.get(id);
        const oldRecord = old ? (old.record as T | undefined) : await memory.get(c, id);
        const exists = oldRecord !== undefined;
        if (!exists) {
          const owner = await ownerOf(id);
          if (owner !== undefined && owner !== c) throw new Error(`ID ${id} is another company's record: do not use --seed with a kept database`);
          if ((await count(c)) >= maxPerCompany) throw StoreFull.instance;
        }
        // Worked out afresh: a handler may have changed the record it puts again.
        keyCache.delete(record as object);
        for (const index of unique) {
          for (const key of keysOf(index, record)) if ((await holders(c, index, key)).some((other) => other !== id)) throw new Duplicate(index);
        }
        const size = sizeOf(record);
        const delta = size - (old ? old.size : exists ? sizeOf(oldRecord) : 0);
        // The budget is shared by the company's collections: this transaction's earlier writes count too.
        if (delta > 0 && pendingBytes + delta > 0) {
          if (!budget.charge(c, pendingBytes + delta)) throw StoreFull.instance;
          budget.refund(c, pendingBytes + delta);
        }
        pendingBytes += delta;
        // `moved`: deleted and put again in this transaction, so it goes to the end of the order, as in memory,
        // also after the records this transaction added since the delete (the map's order is the order they
        // are listed in).
        const writes = writesOf();
        if (old && old.record === undefined) writes.delete(id);
        writes.set(id, { record, size, existed: old ? old.existed : exists, moved: old ? old.moved || (old.record === undefined && old.existed) : false });
        ops.push({ name, company: c, id, record, size });
      };
      /** A write of an earlier, unconfirmed transaction of the company: already checked, seen but not written again. */
      replays.set(name, async (op: Op) => {
        const old = pending.get(name)?.get(op.id);
        const before = old ? undefined : await memory.get(company, op.id);
        const existed = old ? old.existed : before !== undefined;
        if (op.record === undefined) {
          pendingBytes -= old ? old.size : existed ? sizeOf(before as T) : 0;
          // Stryker disable next-line LogicalOperator,BooleanLiteral: a delete's moved flag is read only when the record is put again, and then a record that existed is moved anyway and a new one listed after the others anyway
          writesOf().set(op.id, { record: undefined, size: 0, existed, moved: old?.moved ?? false });
        } else {
          // Stryker disable next-line LogicalOperator: a replayed put carries the size its put worked out, and the record is not changed after its put: sizeOf gives that size again (and 0 stays 0)
          const size = op.size ?? sizeOf(op.record as T);
          pendingBytes += size - (old ? old.size : existed ? sizeOf(before as T) : 0);
          const writes = writesOf();
          if (old && old.record === undefined) writes.delete(op.id);
          writes.set(op.id, { record: op.record, size, existed, moved: old ? old.moved || (old.record === undefined && old.existed) : false });
        }
      });
      const remove = async (c: string, id: string) => {
        const old = mine(c)?.get(id);
        const current = old ? (old.record as T | undefined) : await memory.get(c, id);
        if (current === undefined) return false;
        pendingBytes -= old ? old.size : sizeOf(current);
        // Stryker disable next-line LogicalOperator: as in the replay above: a delete's moved flag does not change where a record put again is listed
        writesOf().set(id, { record: undefined, size: 0, existed: old ? old.existed : true, moved: old?.moved ?? false });
        ops.push({ name, company: c, id, record: undefined });
        return true;
      };
      return {
        get,
        ownerOf,
        list,
        page: async (c, offset, limit) => (mine(c)?.size ? (await list(c)).slice(offset, offset + limit) : (await memory.page(c, offset, limit)).map(copy)),
        count,
        find,
        put,
        delete: remove,
      };
    };
    // A view is made when the transaction first uses its kind of record: most use one of the six.
    const views = new Map<Name, Collection<unknown>>();
    const viewOf = (name: Name) => {
      let made = views.get(name);
      if (!made) views.set(name, (made = view(name)));
      return made;
    };
    const collections = Object.create(lazyViews) as Collections & { [madeBy]: typeof viewOf };
    collections[madeBy] = viewOf;
    return { ops, collections, replay: (op: Op) => (viewOf(op.name), replays.get(op.name)!(op)) };
  };

  const root = Object.fromEntries(
    collectionNames.map((name) => {
      const memory = mirrors[name].memory;
      const collection: Collection<unknown> = {
        get: async (company, id) => (await ready(), memory.get(company, id)),
        ownerOf: async (id) => (await ready(), memory.ownerOf(id)),
        list: async (company) => (await ready(), memory.list(company)),
        page: async (company, offset, limit) => (await ready(), memory.page(company, offset, limit)),
        count: async (company) => (await ready(), memory.count(company)),
        find: async (company, index, key) => (await ready(), memory.find(company, index, key)),
        // A write outside a transaction (a test, a script) is a transaction of its own.
        put: (company, id, record) => transaction(company, (tx) => (tx[name] as Collection<unknown>).put(company, id, record)),
        delete: (company, id) => transaction(company, (tx) => (tx[name] as Collection<unknown>).delete(company, id)),
      };
      return [name, collection];
    }),
  ) as unknown as Collections;

  return {
    kind: db.kind,
    ...root,
    transaction,
    async clear(company?: string) {
      await ready();
      // Stryker disable next-line StringLiteral: enqueue builds every job that is not a write as a clear job
      const run = () => enqueue({ kind: 'clear', company });
      // A company's reset waits for its running transaction; a reset of everyone goes in commit order.
      await (company === undefined ? run() : exclusive(company, run));
    },
    // What was acknowledged is committed already; a commit in flight finishes before the database closes.
    async close() {
      while (flushing) await flushing;
    },
  };
}
