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
 */
import type { Database } from './database.js';

type Waiter = {
  work: (tx: Database) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

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
      const ran: { waiter: Waiter; ok: boolean; value: unknown }[] = [];
      /** Where the commit's flush is awaited, when the commit did not wait for it. */
      let flushed: Promise<void> | undefined;
      try {
        const work = async (tx: Database) => {
          // Statements sent without waiting: checked before the commit, so a failed one fails the group.
          // The lock is one of them: the first transaction's statements follow it on the connection, so
          // they run once it is held, and the group saves a round trip.
          const locked = begin(tx, company);
          locked.catch(() => {});
          const unawaited: Promise<unknown>[] = [locked];
          const send = (text: string) => {
            const sent = tx.query(text);
            sent.catch(() => {});
            unawaited.push(sent);
            return sent;
          };
          let open = false;
          while (queue.length && ran.length < maxGroup) {
            // In `ran` before it runs: if its savepoint or rollback fails, the group's failure answers it.
            const entry = {
              waiter: queue.shift()!,
              ok: true,
              value: undefined as unknown,
            };
            ran.push(entry);
            const saved = send(open ? 'release savepoint g; savepoint g' : 'savepoint g');
            open = true;
            try {
              entry.value = await entry.waiter.work(tx);
            } catch (error) {
              entry.ok = false;
              entry.value = error;
              await saved;
              await tx.query('rollback to savepoint g');
            }
          }
          await Promise.all(unawaited);
        };
        await (db.transactionWithSavepoints ? db.transactionWithSavepoints(work, { flushLater: (flush) => (flushed = flush) }) : db.transaction(work));
      } catch (error) {
        // The group's lock, a savepoint or the commit failed: nothing of it is stored.
        for (const { waiter, ok, value } of ran) waiter.reject(ok ? error : value);
        // It failed before running any (the database is unreachable, say): those waiting fail with it
        // rather than try again without end.
        if (!ran.length) for (const waiter of queue.splice(0)) waiter.reject(error);
        continue;
      }
      onCommit?.(ran.length);
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
      const done: Promise<void> = Promise.all([before, flushed]).then(answer, (error) => {
        for (const { waiter, ok, value } of ran) waiter.reject(ok ? error : value);
      });
      answered.set(company, done);
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
