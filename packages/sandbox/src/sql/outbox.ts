// The durable callback outbox: events wait in the database until delivered or given up, so a restart, a
// crash or `kill -9` loses none, and every sandbox instance on one PostgreSQL shares one queue. The same
// rules as the memory dispatcher (callbacks.ts): at least once, in order per session, the same retry
// policy, every attempt logged (never with a key), the same limits.
//
// Why `FOR UPDATE SKIP LOCKED` on our own table rather than a queue library (pg-boss, graphile-worker):
// the event must be written in the caller's transaction (`enqueue(company, event, tx)`) on PGlite as on
// PostgreSQL, through the one `Database` surface; the libraries bring their own driver and schema, need
// a server (LISTEN, several connections, PGlite has one) and know nothing of "in order per session".
//
// How: an instance claims due events that head their session (no older event of the session waits), a
// few at a time, with `FOR UPDATE SKIP LOCKED`, so two instances never claim the same one; the claim is
// a lease (`leased_until`, a short transaction), not a transaction held through the POST (PGlite has one
// connection, and a receiver may take its timeout). A delivered or given-up event is deleted; a failed one
// gets its next time by the backoff and waits, and its session's later events wait behind it. An instance
// that dies mid-attempt leaves a lease that runs out after the attempt's timeout (plus a margin): another
// instance, or the restarted one, then tries again. "In order" is the order of `seq`, given at insert: a
// session's events are in order when its writes enqueue them one after the other (in the company's
// transaction, as the store runs them), not when two instances enqueue for one session at the same
// moment.
//
// Time: the queue's times (due, lease) are milliseconds of the sandbox's clock, wall-clock time in a
// running sandbox (shared by the instances), a manual clock in tests. As in memory, the wait before a
// retry is a timer of the back-off (setTimeout): when it fires, the instance that made the attempt makes
// the event due at once (its due time was already written, for another instance or a restart to find),
// so a manual clock that does not move delays no retry, and the next attempt does not wait for a poll.
// The poll is an interval (setInterval), and idle() waits on the polls: a test that fakes setTimeout
// sees the retry's timer alone.
import { randomUUID } from 'node:crypto';
import { backoffMs, createReceivers, defaultDeliveryPolicy, post, type DeliveryPolicy } from '../callback-delivery.js';
import type { CallbackEvent, DeliveryAttempt } from '../callbacks.js';
import type { Clock } from '../clock.js';
import type { Company } from '../companies.js';
import { defaultLimits, type Limits } from '../limits.js';
import type { Database } from './database.js';

/** The tables, for the schema's migrations (migrations.ts: frozen once released there, so a change is a new migration); the tests create them the same way. */
export const outboxTables: string[] = [
  `create table callback_outbox (
     seq bigint generated always as identity primary key,
     event_id text not null unique,
     company text not null,
     session_id text not null,
     url text not null,
     callback_key text not null,
     payload json not null,
     attempts integer not null default 0,
     due_at bigint not null,
     leased_until bigint,
     leased_by text
   )`,
  // Heads of sessions, and a company's queue length, are found by this index.
  `create index callback_outbox_session on callback_outbox (company, session_id, seq)`,
  `create table callback_attempts (
     seq bigint generated always as identity primary key,
     company text not null,
     event_id text not null,
     attempt integer not null,
     type text not null,
     session_id text not null,
     url text not null,
     sent_at text not null,
     outcome text not null,
     status integer,
     payload json not null
   )`,
  `create index callback_attempts_company on callback_attempts (company, seq)`,
  `create table callback_pauses (company text primary key)`,
];

export type OutboxOptions = {
  database: Database;
  /** How often an instance looks for due events when nothing told it of one (ms). */
  pollMs?: number;
  /** Added to the attempt's timeout for a lease: longer, and a dead instance's event waits longer. */
  leaseMarginMs?: number;
  /** Events this instance delivers at once (default: `maxConnectionsPerReceiver`). */
  concurrency?: number;
};

/** The memory dispatcher's operations, answering through promises (they read and write the database). */
export type OutboxDispatcher = {
  /**
   * Queues an event for the company and answers its event ID (undefined without a callback URL). With
   * `tx`, the event is written in that transaction: it exists exactly when the write it reports commits.
   */
  enqueue(company: Company, event: CallbackEvent, tx?: Database): Promise<string | undefined>;
  attempts(companyKey: string): Promise<DeliveryAttempt[]>;
  /** Resolves when no event waits in the database and none is under way here. */
  idle(): Promise<void>;
  inFlight(): number;
  clear(companyKey?: string): Promise<void>;
  /** Stops claiming; an attempt under way is cut, logged as failed and left for another instance at once. */
  close(): Promise<void>;
  setPaused(companyKey: string, paused: boolean): Promise<void>;
  isPaused(companyKey: string): Promise<boolean>;
  /** Looks for due events now (e.g. after the transaction that enqueued some has committed). */
  wake(): void;
};

type Claimed = { seq: number; event_id: string; company: string; session_id: string; url: string; callback_key: string; payload: Record<string, unknown>; attempts: number; log_seq: number };

// $1 now, $2 lease end, $3 instance, $4 how many, $5 sentAt. One statement: claim the oldest due heads of
// sessions nobody holds, and log each attempt as pending.
const claim = `
  with claimed as (
    update callback_outbox o set leased_until = $2, leased_by = $3, attempts = o.attempts + 1
    where o.seq in (
      select c.seq from callback_outbox c
      where c.due_at <= $1 and (c.leased_until is null or c.leased_until <= $1)
        and not exists (select 1 from callback_outbox p where p.company = c.company and p.session_id = c.session_id and p.seq < c.seq)
        and not exists (select 1 from callback_pauses z where z.company = c.company)
      order by c.seq
      limit $4
      for update skip locked)
    returning o.*),
  logged as (
    insert into callback_attempts (company, event_id, attempt, type, session_id, url, sent_at, outcome, payload)
    select company, event_id, attempts, payload->>'type', session_id, url, $5, 'pending', payload from claimed
    returning seq as log_seq, event_id)
  select c.seq, c.event_id, c.company, c.session_id, c.url, c.callback_key, c.payload, c.attempts, l.log_seq
  from claimed c join logged l using (event_id) order by c.seq`;

// $1 seq, $2 instance, $3 log seq, $4 outcome, $5 status, $6 finished (delivered or given up), $7 next due,
// $8 company, $9 log entries kept. The event leaves the queue or waits for its next attempt; the log
// entry gets its outcome; the company's log keeps its latest entries.
const settle = `
  with logged as (update callback_attempts set outcome = $4, status = $5 where seq = $3),
  finished as (delete from callback_outbox where seq = $1 and leased_by = $2 and $6::boolean),
  retried as (update callback_outbox set due_at = $7, leased_until = null, leased_by = null where seq = $1 and leased_by = $2 and not $6::boolean),
  trimmed as (delete from callback_attempts where company = $8 and seq <= (select seq from callback_attempts where company = $8 order by seq desc offset $9 limit 1))
  select 1`;

// $1 seq, $2 instance, $3 log seq. A claim that close() overtook before its POST: as if never claimed.
const unclaim = `
  with unlogged as (delete from callback_attempts where seq = $3)
  update callback_outbox set leased_until = null, leased_by = null, attempts = attempts - 1 where seq = $1 and leased_by = $2`;

// $1 seq, $2 instance, $3 log seq. An event whose URL is unusable: dropped without an attempt, as in memory.
const drop = `
  with unlogged as (delete from callback_attempts where seq = $3)
  delete from callback_outbox where seq = $1 and leased_by = $2`;

// $1 event ID, $2 company, $3 session, $4 url, $5 key, $6 payload, $7 due, $8 most waiting per company.
const insert = `
  insert into callback_outbox (event_id, company, session_id, url, callback_key, payload, due_at)
  select $1, $2, $3, $4, $5, $6::text::json, $7
  where (select count(*) from (select 1 from callback_outbox where company = $2 limit $8) waiting) < $8
  returning seq`;

export function createOutboxDispatcher({
  database,
  clock,
  random,
  nextId,
  policy = defaultDeliveryPolicy,
  limits = defaultLimits,
  pollMs = 250,
  leaseMarginMs = 5_000,
  concurrency = limits.maxConnectionsPerReceiver,
}: OutboxOptions & { clock: Clock; random: () => number; nextId: () => string; policy?: DeliveryPolicy; limits?: Limits }): OutboxDispatcher {
  const instance = randomUUID();
  const receivers = createReceivers(limits);
  const running = new Set<Promise<void>>();
  let closed = false;
  let pumping: Promise<void> | undefined;
  let again = false;
  // The retries this instance waits for (cleared on close), and idle()'s callers waiting for a pump to end.
  const retries = new Set<NodeJS.Timeout>();
  let pumped: (() => void)[] = [];
  const now = () => clock.now();
  const sentAt = () => new Date(now()).toISOString();

  /** Claims what this instance has room for, starts each delivery, and comes back on the next tick. */
  function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        try {
          while (!closed && running.size < concurrency) {
            const room = concurrency - running.size;
            const at = now();
            const rows = await database.query<Claimed>(claim, [at, at + policy.timeoutMs + leaseMarginMs, instance, room, sentAt()]);
            for (const row of rows) track(deliver(row));
            if (rows.length < room) break;
          }
        } catch {
          // The database is away (closing, restarting): the next tick tries again.
        }
      } while (again && !closed);
    })().finally(() => {
      pumping = undefined;
      for (const resolve of pumped.splice(0)) resolve();
    });
    return pumping;
  }

  function track(delivery: Promise<void>) {
    running.add(delivery);
    void delivery.finally(() => {
      running.delete(delivery);
      // A slot is free, and the session's next event may be due now.
      if (!closed) setImmediate(() => void pump());
    });
  }

  async function deliver(row: Claimed) {
    if (closed) {
      await database.query(unclaim, [row.seq, instance, row.log_seq]).catch(() => {});
      return;
    }
    let url: URL;
    try {
      url = new URL(row.url);
    } catch {
      await database.query(drop, [row.seq, instance, row.log_seq]).catch(() => {});
      return;
    }
    let outcome: 'delivered' | 'failed' = 'failed';
    let status: number | null = null;
    const receiver = receivers.receiverFor(url);
    // The payload starts with the redacted key: the real one takes its place in the body that is sent.
    const body = JSON.stringify({ ...row.payload, callbackApiKey: row.callback_key });
    try {
      status = await receivers.withTurn(receiver, () => post(url, receiver.agent, body, policy.timeoutMs));
      outcome = status >= 200 && status < 300 ? 'delivered' : 'failed';
    } catch {
      outcome = 'failed';
    }
    // Cut by close(): the next instance tries again at once, this attempt counted.
    const finished = outcome === 'delivered' || (!closed && row.attempts >= policy.maxAttempts);
    const wait = closed || finished ? 0 : backoffMs(policy, row.attempts, random);
    try {
      await database.query(settle, [row.seq, instance, row.log_seq, outcome, status, finished, now() + wait, row.company, limits.maxCallbackLogEntries]);
    } catch {
      // The lease runs out and another attempt follows: at least once.
      return;
    }
    if (!finished && !closed) retryAfter(row.seq, wait);
  }

  /** After the back-off, the event is due now by this instance's clock (unless another instance took it). */
  function retryAfter(seq: number, ms: number) {
    const timer = setTimeout(() => {
      retries.delete(timer);
      if (closed) return;
      database
        .query('update callback_outbox set due_at = least(due_at, $2::bigint) where seq = $1 and leased_by is null', [seq, now()])
        .then(wake, () => {});
    }, ms);
    timer.unref();
    retries.add(timer);
  }

  const wake = () => {
    if (!closed) setImmediate(() => void pump());
  };
  // The queue's poll alone keeps no process alive (a test's, a CLI's): the server does.
  const poll = setInterval(() => void pump(), pollMs).unref();
  wake();

  return {
    async enqueue(company, event, tx) {
      if (!company.callbackUrl) return undefined;
      const eventId = nextId();
      const payload = JSON.stringify({ callbackApiKey: '[redacted]', ...event });
      const [queued] = await (tx ?? database).query(insert, [eventId, company.companyKey, event.sessionId, company.callbackUrl, company.callbackApiKey ?? '', payload, now(), limits.maxQueuedCallbacks]);
      if (!queued) {
        // Given up at once: the log says so, and nothing more is held for it.
        await (tx ?? database).query(
          `insert into callback_attempts (company, event_id, attempt, type, session_id, url, sent_at, outcome, payload) values ($1, $2, 1, $3, $4, $5, $6, 'failed', $7::text::json)`,
          [company.companyKey, eventId, event.type, event.sessionId, company.callbackUrl, sentAt(), payload],
        );
      } else if (!tx) wake();
      return eventId;
    },
    async attempts(companyKey) {
      const rows = await database.query<{ event_id: string; attempt: number; type: string; session_id: string; url: string; sent_at: string; outcome: DeliveryAttempt['outcome']; status: number | null; payload: DeliveryAttempt['payload'] }>(
        `select * from (select * from callback_attempts where company = $1 order by seq desc limit $2) latest order by seq`,
        [companyKey, limits.maxCallbackLogEntries],
      );
      return rows.map((row) => ({ eventId: row.event_id, attempt: row.attempt, type: row.type, sessionId: row.session_id, url: row.url, sentAt: row.sent_at, outcome: row.outcome, status: row.status, payload: row.payload }));
    },
    async idle() {
      for (let first = true; ; first = false) {
        const [{ waiting }] = (await database.query<{ waiting: number }>('select count(*) as waiting from callback_outbox')) as [{ waiting: number }];
        if (waiting === 0 && running.size === 0) return;
        // Closed, this instance pumps no more: another one (or nobody) empties the queue.
        if (closed) await new Promise((resolve) => setTimeout(resolve, 20));
        else {
          // The next pump: after a delivery, a retry's wait, or the poll (another instance's events).
          await new Promise<void>((resolve) => {
            pumped.push(resolve);
            if (first) wake();
          });
        }
      }
    },
    inFlight: receivers.inFlight,
    async clear(companyKey) {
      await database.transaction(async (tx) => {
        for (const table of ['callback_outbox', 'callback_attempts', 'callback_pauses']) {
          if (companyKey === undefined) await tx.query(`delete from ${table}`, []);
          else await tx.query(`delete from ${table} where company = $1`, [companyKey]);
        }
      });
    },
    async close() {
      closed = true;
      clearInterval(poll);
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
      for (const resolve of pumped.splice(0)) resolve();
      receivers.destroy();
      await pumping;
      await Promise.allSettled([...running]);
      receivers.destroy();
    },
    async setPaused(companyKey, paused) {
      if (paused) await database.query('insert into callback_pauses (company) values ($1) on conflict do nothing', [companyKey]);
      else {
        await database.query('delete from callback_pauses where company = $1', [companyKey]);
        wake();
      }
    },
    async isPaused(companyKey) {
      return (await database.query('select 1 from callback_pauses where company = $1', [companyKey])).length > 0;
    },
    wake,
  };
}
