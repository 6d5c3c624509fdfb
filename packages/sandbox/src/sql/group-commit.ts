/**
 * Group commit of one company's transactions on PostgreSQL. A company's writes are serialised (its
 * advisory lock, store.ts), so each used to pay a whole transaction alone: BEGIN, the lock, its
 * statements, and a COMMIT that waits for the WAL to reach the disk (about 5 ms a write on this
 * machine, 188 req/s for add-blacklist-record). Here the transactions of a company that wait in this
 * instance run one after another inside ONE database transaction, which takes the company's lock once:
 *
 * - each runs in its own SAVEPOINT, so one that throws (a refused request, a unique violation) rolls
 *   back alone and gets its own error; the others of the group are kept;
 * - all are answered after the one COMMIT and its flush to disk (a 200 is on disk), and if that commit
 *   fails, every one of them gets its error (nothing of the group is stored). The COMMIT itself does not
 *   wait for the flush (synchronous_commit off for the group's transaction): the company's lock is free
 *   at once and its next group runs while the disk works; a synchronous transaction sent right behind
 *   the COMMIT returns once the log is on disk past it, and only then is the group answered, after the
 *   company's groups before it;
 * - the order is the order of arrival, the group's transactions are serialised as before, and across
 *   instances the advisory lock still lets one group of a company run at a time.
 *
 * Why not `FOR UPDATE SKIP LOCKED` or one transaction per request in parallel: a company's writes must
 * stay serialised (a check and the write it allows are atomic, one blacklist record per identity), so
 * the only cost that can be shared is the commit's flush and the lock; a group divides both by its size.
 *
 * The savepoint costs no round trip: `savepoint g` is sent without waiting, and the transaction's first
 * statement follows it in the same pipeline (postgres.js pipelines a connection's queries);
 * `release savepoint g` goes with the next one. Savepoints of writes take a subtransaction ID each, and
 * PostgreSQL keeps up to 64 per transaction in shared memory (more slows every other session's
 * snapshots), so a group holds at most 50.
 *
 * Writes that wait for the next ones (`park`, issue 15's bench): a transaction whose first statement is
 * the write of a new record (add-blacklist-record: the handler's one `put`) does not run it at once: the
 * next transactions of the group start meanwhile, and the run of such writes goes in ONE statement
 * (store.ts `putMany`), then each transaction goes on, in order. A group of ten adds was ten round trips
 * of a savepoint and a put, each waited for by the next (1.0 statement and 260 to 300 µs of PostgreSQL's
 * CPU per add); now one (0.18 statements, 130 µs). The order of a serial run holds: a transaction that
 * runs a statement before its write runs the parked writes first; the statement writes nothing unless all
 * pass (then each got what it would alone), else each runs alone; a transaction that goes on to another
 * statement, or throws, after its write has the statement undone (back to its savepoint) and the writes
 * before it written again, its own alone, and the ones after it one by one.
 */
import type { Batchable, Database } from './database.js';

type Waiter = {
  work: (tx: Database) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Its write runs alone, never parked: a write sent again after a committed-ahead statement declined it. */
  alone?: boolean;
};

/**
 * A write that is its transaction's only statement (`whole`: a store's put outside a transaction, as
 * add-blacklist-record's). A group made of such writes alone needs no answer from PostgreSQL before its
 * COMMIT: see `commitAhead`.
 */
export type WholeBatchable<I = unknown> = Batchable<I> & { whole?: boolean };

/**
 * A transaction of a group transaction on PostgreSQL (postgres.ts) that can send its COMMIT, and the flush
 * barrier behind it, right behind the statements already sent, without waiting for their answers.
 */
type CommitsAhead = Database & { commitAhead?: () => void };

/** The old promise of a write sent again in a later group (its transaction runs again from its start). */
// Stryker disable next-line StringLiteral: the message reaches only the first run of a whole write's transaction, which the store's put passes on unread and the group drops (ran.splice) before any answer; its waiter is answered by the run that follows.
const sentAgain = new Error('sent again in the next group');

/**
 * A transaction of a group as it runs: `fresh` until its first statement or parked write, `parked` while
 * its write waits for the statement of several, `resumed` once that wrote it (it should end without
 * another statement), `live` once it runs statements in its own savepoint.
 */
type Entry = {
  waiter: Waiter;
  ok: boolean;
  value: unknown;
  state: 'fresh' | 'parked' | 'resumed' | 'live';
  settled: Promise<void>;
  settledNow: boolean;
  /** Resolved when it parks a write or wants to run a statement. */
  wants: { promise: Promise<void>; resolve: () => void };
  goLive: () => void;
  /** Its first statement's way to live (statements sent at once share it), and a resumed one's. */
  starting?: Promise<void>;
  resuming?: Promise<void>;
};

type Parked = { entry: Entry; batch: Batchable; one: () => Promise<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const newEntry = (waiter: Waiter): Entry => ({ waiter, ok: true, value: undefined, state: 'fresh', settled: Promise.resolve(), settledNow: false, wants: deferred(), goLive: () => {} });

export type GroupCommitOptions = {
  /** The most transactions in one group (default 50). */
  maxGroup?: number;
  /** Called with each committed group's size: for tests and benches. */
  onCommit?: (transactions: number) => void;
};

/**
 * `run(company, work)` runs `work` in a group transaction of the company: `begin(tx, company)` is called
 * once at the start of each group (it takes the company's lock).
 */
export function groupCommit(db: Database, begin: (tx: Database, company: string) => Promise<void>, { maxGroup = 50, onCommit }: GroupCommitOptions = {}) {
  const queues = new Map<string, Waiter[]>();
  /** Per company, the answers of its last flushed-later group: the next group's answers follow them. */
  const answered = new Map<string, Promise<void>>();

  async function lead(company: string, queue: Waiter[]) {
    while (queue.length) {
      const ran: Entry[] = [];
      /** Whole writes that a committed-ahead statement declined: run again, alone, at the head of the queue. */
      const again: Parked[] = [];
      /** Where the commit's flush is awaited, when the commit did not wait for it. */
      let flushed: Promise<void> | undefined;
      try {
        const work = async (tx: Database) => {
          // Statements sent without waiting: checked before the commit, so a failed one fails the group.
          // The lock is one of them, sent with the group's first statement (every one follows a savepoint):
          // the statements after it on the connection run once it is held, and the group saves a round
          // trip; not before, so that another instance's group of the company is not kept waiting while
          // this one's transactions park their writes.
          // Stryker disable next-line ArrayDeclaration: an extra non-promise entry resolves at once in Promise.all; nothing else reads the list.
          const unawaited: Promise<unknown>[] = [];
          const send = (text: string) => {
            const sent = tx.query(text);
            sent.catch(() => {});
            unawaited.push(sent);
            return sent;
          };
          let open = false;
          /** A new savepoint for what follows (the one before is kept: released into the transaction). */
          const savepoint = () => {
            if (!open) {
              const locked = begin(tx, company);
              locked.catch(() => {});
              unawaited.push(locked);
            }
            const saved = send(open ? 'release savepoint g; savepoint g' : 'savepoint g');
            open = true;
            return saved;
          };
          let saved: Promise<unknown> = Promise.resolve();
          const rollback = async () => {
            await saved;
            await tx.query('rollback to savepoint g');
          };
          /** Writes waiting to go in one statement (`park`), in order, all of one key. */
          let parked: Parked[] = [];

          /** Runs the parked writes one by one, each transaction to its end before the next write. */
          const oneByOne = async (list: Parked[]) => {
            for (const item of list) {
              item.entry.state = 'live';
              saved = savepoint();
              try {
                item.resolve(await item.one());
              } catch (error) {
                item.reject(error);
              }
              await item.entry.settled;
              if (!item.entry.ok) await rollback();
            }
          };

          /**
           * The parked writes in one statement; then each of their transactions goes on, in order. One that
           * goes on to another statement, or throws, after its write (nothing the bench's adds do) undoes
           * the statement: the writes before it are written again in one statement, its own alone, and it and
           * the ones after it run one by one, so that every statement runs in the order of a serial run.
           */
          // Stryker disable next-line BooleanLiteral: flush() without an argument comes from `before` for a fresh entry, which is in `ran`, fresh, not settled and not parked, so the `ran.every` check below fails as it would with `last` false.
          const flush = async (last = false) => {
            if (!parked.length) return;
            const list = parked;
            parked = [];
            if (last && (tx as CommitsAhead).commitAhead && !open && list.every((item) => (item.batch as WholeBatchable).whole)) {
              // Only whole writes, and the group's transactions before them ran no statement (refused first).
              const entries = new Set(list.map((item) => item.entry));
              // Stryker disable next-line EqualityOperator,MethodExpression,StringLiteral: with `open` false every entry of `ran` not parked is one refused before any statement (any other ran a savepoint), so the check holds; made false it only takes the ordinary path (the statement in a savepoint, then COMMIT), with the same answers and rows.
              if (ran.every((entry) => entries.has(entry) || (entry.state === 'fresh' && entry.settledNow))) return commitAhead(list);
            }
            if (list.length === 1) return oneByOne(list);
            const { many } = list[0]!.batch;
            const items = list.map((item) => item.batch.item);
            saved = savepoint();
            let values: unknown[] | undefined;
            // Stryker disable next-line BooleanLiteral: `failed` is read only when the statement declined, having written nothing: a rollback to the savepoint taken just before it changes nothing.
            let failed = false;
            try {
              values = await many(tx, items);
            } catch {
              // A statement PostgreSQL refused: one by one, each gets its own answer.
              failed = true;
            }
            if (!values) {
              // Declined, it wrote nothing; refused, it left the transaction aborted.
              if (failed) await rollback();
              return oneByOne(list);
            }
            for (let k = 0; k < list.length; k++) {
              const item = list[k]!;
              item.entry.state = 'resumed';
              item.entry.wants = deferred();
              item.resolve(values[k]);
              await Promise.race([item.entry.settled, item.entry.wants.promise]);
              if (item.entry.state === 'resumed' && item.entry.settledNow && item.entry.ok) continue;
              await rollback();
              // Stryker disable next-line StringLiteral: not reached: a prefix of a run the statement of several has just written passes the same checks again once that statement is rolled back.
              if (k > 0 && !(await many(tx, items.slice(0, k)))) throw new Error('the group commit could not write again what it had written');
              // Stryker disable next-line BlockStatement: without it a transaction that threw after its write has its write run alone again, then rolled back to its savepoint (it failed): the same rows and answers.
              if (item.entry.settledNow) {
                // Threw after its write: its write is undone, the ones after it run one by one.
                // Stryker disable next-line MethodExpression: the writes before it are written again with the same data (an upsert that keeps their order and usage) and its own is rolled back (it failed): the same rows.
                return oneByOne(list.slice(k + 1));
              }
              saved = savepoint();
              item.entry.state = 'live';
              await item.one();
              item.entry.goLive();
              await item.entry.settled;
              if (!item.entry.ok) await rollback();
              return oneByOne(list.slice(k + 1));
            }
          };

          /**
           * A group made only of whole writes, parked (issue 15's bench: every add-blacklist-record), needs no
           * answer before its end: the lock, the statement of several and the COMMIT with its flush barrier go
           * in ONE round trip, and the company's lock is held for PostgreSQL's own time, not through a trip to
           * this process and back (two instances hand it over that much sooner). The statement writes all or
           * nothing (store.ts manyNewSql); if it declines, or PostgreSQL refuses it (the COMMIT then rolls
           * back), nothing is written and the same transactions run again, each write alone, at the head of
           * the company's queue, so every answer is the one a serial run gives.
           */
          const commitAhead = async (list: Parked[]) => {
            const locked = begin(tx, company);
            locked.catch(() => {});
            unawaited.push(locked);
            // Stryker disable next-line BooleanLiteral: `open` is not read after commitAhead, the group's last step.
            open = true;
            const writing = list[0]!.batch.many(tx, list.map((item) => item.batch.item));
            writing.catch(() => {});
            (tx as CommitsAhead).commitAhead!();
            const values = await writing.catch(() => undefined);
            if (!values) {
              again.push(...list);
              for (const item of list) item.reject(sentAgain);
              return;
            }
            // All answered at once, then awaited together: each is its transaction's only statement, so none
            // of them runs anything after it that the next would have to follow (one wait for the group, not
            // a race and a deferred promise each: issue 15's bench).
            const another = deferred();
            for (let k = 0; k < list.length; k++) {
              const item = list[k]!;
              // Stryker disable next-line StringLiteral: any state but live, fresh or parked takes `before`'s resumed path, and nothing else reads it after commitAhead.
              item.entry.state = 'resumed';
              item.entry.wants = another;
              item.resolve(values[k]);
            }
            await Promise.race([Promise.all(list.map((item) => item.entry.settled)), another.promise]);
            // A whole write's transaction ends with it; a statement after it would run after the COMMIT.
            if (!list.every((item) => item.entry.settledNow)) throw new Error('a transaction whose write was marked whole ran another statement after it');
          };

          /** The transaction the group started last. */
          let current: Entry | undefined;
          /** Called before each statement of a transaction of the group (once for statements sent at once). */
          const before = (entry: Entry): Promise<void> => {
            if (entry.state === 'live') return Promise.resolve();
            if (entry.state === 'fresh') {
              return (entry.starting ??= (async () => {
                await flush();
                saved = savepoint();
                entry.state = 'live';
                entry.wants.resolve();
              })());
            }
            if (entry.state === 'parked') {
              // A statement sent while its own write waits (statements sent at once): its write first, alone.
              const at = parked.findIndex((item) => item.entry === entry);
              if (current !== entry || at !== parked.length - 1) return Promise.reject(new Error('a statement of a transaction whose write is parked, after the next transaction started: await each write'));
              const [own] = parked.splice(at, 1);
              entry.state = 'fresh';
              return before(entry).then(() => own!.one().then(own!.resolve, own!.reject));
            }
            // Resumed after its parked write, and not done: `flush` makes it live.
            return (entry.resuming ??= new Promise<void>((resolve) => {
              entry.goLive = resolve;
              entry.wants.resolve();
            }));
          };

          const handle = (entry: Entry): Database => ({
            kind: tx.kind,
            query: async (text, params) => {
              await before(entry);
              return tx.query(text, params);
            },
            transaction: async (inner) => {
              await before(entry);
              return tx.transaction(inner);
            },
            close: () => tx.close(),
            park: async <R>(batch: Batchable, one: () => Promise<R>): Promise<R> => {
              if (entry.waiter.alone || entry.state !== 'fresh' || entry.starting || (parked.length && parked[0]!.batch.key !== batch.key)) {
                await before(entry);
                return one();
              }
              entry.state = 'parked';
              return new Promise<R>((resolve, reject) => {
                parked.push({ entry, batch, one, resolve: resolve as (value: unknown) => void, reject });
                entry.wants.resolve();
              });
            },
          });

          try {
            while (queue.length && ran.length < maxGroup) {
              // In `ran` before it runs: if its savepoint or rollback fails, the group's failure answers it.
              const entry = newEntry(queue.shift()!);
              ran.push(entry);
              current = entry;
              entry.settled = entry.waiter.work(handle(entry)).then(
                (value) => {
                  entry.value = value;
                  entry.settledNow = true;
                },
                (error) => {
                  entry.ok = false;
                  entry.value = error;
                  entry.settledNow = true;
                },
              );
              // Until it parks a write, runs a statement, or ends (a refusal before any statement).
              for (;;) {
                await Promise.race([entry.settled, entry.wants.promise]);
                if (entry.state === 'parked') {
                  // Statements it sends beside its write (a Promise.all) reach `before` before the next starts.
                  // A whole write is its transaction's only statement: nothing to wait for (32 turns of the
                  // microtask queue an add were a tenth of the group commit's CPU, issue 15's bench).
                  // Stryker disable next-line EqualityOperator,OptionalChaining,UnaryOperator: an entry still parked has its write last in `parked` (the list is not empty), and each of these only makes a whole write wait its 32 turns too: performance only.
                  if (!(parked.at(-1)?.entry === entry && (parked.at(-1)!.batch as WholeBatchable).whole)) {
                    for (let turn = 0; turn < 32 && entry.state === 'parked'; turn++) await null;
                  }
                  if (entry.state === 'parked') break;
                }
                if (entry.state === 'live') {
                  await entry.settled;
                  if (!entry.ok) await rollback();
                  break;
                }
                if (entry.settledNow) break;
                // Its write taken back from the parked ones (`before`): it goes live next.
                entry.wants = deferred();
              }
            }
            await flush(true);
          } catch (error) {
            for (const item of parked) item.reject(error);
            // Stryker disable next-line ArrayDeclaration: nothing is parked when the group's catch runs (a flush takes the list first, and no later transaction starts while one is awaited), and the list is not read after the rethrow.
            parked = [];
            throw error;
          }
          await Promise.all(unawaited);
        };
        try {
          await (db.transactionWithSavepoints ? db.transactionWithSavepoints(work, { flushLater: (flush) => (flushed = flush) }) : db.transaction(work));
        } finally {
          if (again.length) {
            const entries = new Set(again.map((item) => item.entry));
            ran.splice(0, ran.length, ...ran.filter((entry) => !entries.has(entry)));
            queue.unshift(...again.map((item) => ({ ...item.entry.waiter, alone: true })));
          }
        }
      } catch (error) {
        if (again.length) {
          // The statement PostgreSQL refused rolled the group back; the others of the group ran no statement.
          for (const { waiter, ok, value } of ran) (ok ? waiter.resolve : waiter.reject)(value);
          continue;
        }
        // The group's lock, a savepoint or the commit failed: nothing of it is stored.
        for (const { waiter, ok, value } of ran) waiter.reject(ok ? error : value);
        // It failed before running any (the database is unreachable, say): those waiting fail with it
        // rather than try again without end.
        if (!ran.length) for (const waiter of queue.splice(0)) waiter.reject(error);
        continue;
      }
      if (ran.length) onCommit?.(ran.length);
      const answer = () => {
        for (const { waiter, ok, value } of ran) (ok ? waiter.resolve : waiter.reject)(value);
      };
      if (!flushed) {
        answer();
        continue;
      }
      // Committed without waiting for the flush, so the company's lock is free and its next group starts
      // now; this group is answered once the log is on disk, and after the company's groups before it (a
      // later flush covers them, but their answers, and the callbacks they enqueue, stay in order). If the
      // flush fails, what the group wrote may or may not be on disk: none of it is acknowledged.
      const before = answered.get(company) ?? Promise.resolve();
      // Failed or not, the flush is answered after the groups before it: Promise.all would reject (and
      // answer this group, then let the next one go) as soon as the flush fails, ahead of them.
      const flush = flushed;
      flush.catch(() => {});
      const done: Promise<void> = before.then(() => flush).then(answer, (error) => {
        for (const { waiter, ok, value } of ran) waiter.reject(ok ? error : value);
      });
      answered.set(company, done);
      // Stryker disable next-line BlockStatement: the cleanup of the answered map: a kept, settled promise orders the next group's answers the same way (memory only).
      void done.then(() => {
        if (answered.get(company) === done) answered.delete(company);
      });
    }
    queues.delete(company);
  }

  return function run<T>(company: string, work: (tx: Database) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        work,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      const queue = queues.get(company);
      if (queue) {
        queue.push(waiter);
        return;
      }
      const fresh = [waiter];
      queues.set(company, fresh);
      void lead(company, fresh);
    });
  };
}
