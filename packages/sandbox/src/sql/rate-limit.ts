// The per-IP rate limit counted in the database, so that every sandbox instance on one PostgreSQL sees one
// count: the same rules as the memory limiter (rate-limit.ts): a window of one minute from an address's
// first request, more than `perMinute` requests in it blocks the address for `blockMs`, a request after
// the block opens a fresh window. One row per address, changed by one atomic upsert per batch of an address's
// requests: the row lock orders concurrent batches from one address across instances, so the (perMinute + 1)th is refused
// whichever instance takes it. Times are milliseconds of the sandbox's clock.
import type { Clock } from '../clock.js';
import type { AddressState } from '../rate-limit.js';
import type { Database } from './database.js';

/**
 * The table, for the schema's migrations (migrations.ts: frozen once released there, so a change is a
 * new migration); the tests create it the same way. Unlogged: no
 * write-ahead log for a counter written on every request (a server crash empties it, which only forgives
 * the current minute's counts and blocks).
 */
export const rateLimitTables: string[] = [
  `create unlogged table rate_limit_hits (
     ip text primary key,
     window_start bigint not null,
     hits integer not null,
     blocked_until bigint
   )`,
];

// $1 ip, $2 now, $3 perMinute, $4 blockMs, $5 the requests of this address in the batch (n). Three cases
// for an address already seen, in this order: its block still runs (refused; the count goes on, so that
// the row tells it: see `allowedOf`); its window or its block has ended (a new window of n requests);
// otherwise n more in the window. Over `perMinute` sets the block. `hits` is the count of the window,
// refused requests included.
const held = 'h.blocked_until > $2::bigint';
const fresh = '(h.blocked_until is not null or $2::bigint - h.window_start >= 60000)';
const hit = `
  insert into rate_limit_hits as h (ip, window_start, hits, blocked_until)
  values ($1, $2::bigint, $5::integer, case when $5::integer > $3::integer then $2::bigint + $4::bigint end)
  on conflict (ip) do update set
    window_start = case when ${held} then h.window_start when ${fresh} then $2::bigint else h.window_start end,
    hits = case when ${held} then h.hits + $5::integer when ${fresh} then $5::integer else h.hits + $5::integer end,
    blocked_until = case when ${held} then h.blocked_until
                         when (case when ${fresh} then $5::integer else h.hits + $5::integer end) > $3::integer then $2::bigint + $4::bigint end
  returning hits`;

/**
 * How many of the batch's n requests are allowed, from the row after it: the first (perMinute - count
 * before) of them. An open window's count is at most perMinute before a batch that is not held (a count
 * past it set a block, and the next batch after the block opens a new window); a held batch finds the
 * count already past perMinute and adds n, so it allows none.
 */
const allowedOf = (hitsAfter: number, n: number, perMinute: number) => Math.max(0, Math.min(n, n - (hitsAfter - perMinute)));

export type SharedRateLimiter = {
  allow(ip: string): Promise<boolean>;
  /** Forgets every address (the whole sandbox's reset). */
  reset(): Promise<void>;
  addresses(): Promise<AddressState[]>;
  unblock(ip: string): Promise<boolean>;
};

export function createSqlRateLimiter({
  database,
  perMinute,
  blockMs,
  clock,
  sweepEvery = 1_000,
}: {
  database: Database;
  perMinute: number;
  blockMs: number;
  clock: Clock;
  /** Every this many requests, rows whose window and block have ended are deleted (the table stays small). */
  sweepEvery?: number;
}): SharedRateLimiter {
  let sinceSweep = 0;
  const sweep = (now: number) => database.query('delete from rate_limit_hits where window_start <= $1 and (blocked_until is null or blocked_until <= $2)', [now - 60_000, now]).catch(() => {});
  /**
   * Requests of each address waiting for their answer: those that arrive in one turn of the event loop,
   * or while the address's statement runs, are counted by the next statement together (one round trip and
   * one row lock for them all, not one each), and answered in their order of arrival.
   */
  const waiting = new Map<
    string,
    {
      answers: ((allowed: boolean) => void)[];
      failures: ((error: unknown) => void)[];
    }
  >();
  const count = async (ip: string) => {
    const entry = waiting.get(ip)!;
    while (entry.answers.length) {
      const answers = entry.answers.splice(0);
      const failures = entry.failures.splice(0);
      try {
        const now = clock.now();
        sinceSweep += answers.length;
        if (sinceSweep >= sweepEvery) {
          sinceSweep = 0;
          await sweep(now);
        }
        const [row] = await database.query<{ hits: number }>(hit, [ip, now, perMinute, blockMs, answers.length]);
        const allowed = allowedOf(Number(row!.hits), answers.length, perMinute);
        answers.forEach((answer, i) => answer(i < allowed));
      } catch (error) {
        for (const fail of failures) fail(error);
      }
    }
    waiting.delete(ip);
  };
  return {
    allow(ip) {
      return new Promise<boolean>((resolve, reject) => {
        const entry = waiting.get(ip);
        if (entry) {
          entry.answers.push(resolve);
          entry.failures.push(reject);
          return;
        }
        waiting.set(ip, { answers: [resolve], failures: [reject] });
        // The rest of this turn's requests join it.
        setImmediate(() => void count(ip));
      });
    },
    async reset() {
      await database.query('delete from rate_limit_hits');
    },
    async addresses() {
      const now = clock.now();
      // A count past perMinute is shown as perMinute + 1, as the memory limiter stops counting at the block.
      const rows = await database.query<{
        ip: string;
        window_start: number;
        hits: number;
        blocked_until: number | null;
      }>('select ip, window_start, least(hits, $3::integer + 1) as hits, blocked_until from rate_limit_hits where window_start > $1 or blocked_until > $2 order by ip', [now - 60_000, now, perMinute]);
      return rows.map((row) => {
        const open = now - row.window_start < 60_000;
        return {
          ip: row.ip,
          requests: open ? row.hits : 0,
          windowStart: open ? row.window_start : null,
          blockedUntil: row.blocked_until !== null && now < row.blocked_until ? row.blocked_until : null,
        };
      });
    },
    async unblock(ip) {
      const [row] = await database.query<{ blocked_until: number | null }>('delete from rate_limit_hits where ip = $1 returning blocked_until', [ip]);
      return row !== undefined && row.blocked_until !== null && clock.now() < row.blocked_until;
    },
  };
}
