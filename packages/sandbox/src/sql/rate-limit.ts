// The per-IP rate limit counted in the database, so that every sandbox instance on one PostgreSQL sees one
// count: the same rules as the memory limiter (rate-limit.ts): a window of one minute from an address's
// first request, more than `perMinute` requests in it blocks the address for `blockMs`, a request after
// the block opens a fresh window. One row per address, changed by one atomic upsert per request: the row
// lock orders concurrent requests from one address across instances, so the (perMinute + 1)th is refused
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

// $1 ip, $2 now, $3 perMinute, $4 blockMs. Three cases for an address already seen, in this order: its
// block still runs (nothing changes, refused); its window or its block has ended (a new window, this
// request its first); otherwise one more in the window. Over `perMinute` sets the block.
const held = 'h.blocked_until > $2::bigint';
const fresh = '(h.blocked_until is not null or $2::bigint - h.window_start >= 60000)';
const hit = `
  insert into rate_limit_hits as h (ip, window_start, hits, blocked_until)
  values ($1, $2::bigint, 1, case when 1 > $3::integer then $2::bigint + $4::bigint end)
  on conflict (ip) do update set
    window_start = case when ${held} then h.window_start when ${fresh} then $2::bigint else h.window_start end,
    hits = case when ${held} then h.hits when ${fresh} then 1 else h.hits + 1 end,
    blocked_until = case when ${held} then h.blocked_until
                         when (case when ${fresh} then 1 else h.hits + 1 end) > $3::integer then $2::bigint + $4::bigint end
  returning blocked_until`;

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
  const sweep = (now: number) =>
    database.query('delete from rate_limit_hits where window_start <= $1 and (blocked_until is null or blocked_until <= $2)', [now - 60_000, now]).catch(() => {});
  return {
    async allow(ip) {
      const now = clock.now();
      if (++sinceSweep >= sweepEvery) {
        sinceSweep = 0;
        await sweep(now);
      }
      const [row] = await database.query<{ blocked_until: number | null }>(hit, [ip, now, perMinute, blockMs]);
      return row!.blocked_until === null;
    },
    async reset() {
      await database.query('delete from rate_limit_hits');
    },
    async addresses() {
      const now = clock.now();
      const rows = await database.query<{ ip: string; window_start: number; hits: number; blocked_until: number | null }>(
        'select ip, window_start, hits, blocked_until from rate_limit_hits where window_start > $1 or blocked_until > $2 order by ip',
        [now - 60_000, now],
      );
      return rows.map((row) => {
        const open = now - row.window_start < 60_000;
        return { ip: row.ip, requests: open ? row.hits : 0, windowStart: open ? row.window_start : null, blockedUntil: row.blocked_until !== null && now < row.blocked_until ? row.blocked_until : null };
      });
    },
    async unblock(ip) {
      const [row] = await database.query<{ blocked_until: number | null }>('delete from rate_limit_hits where ip = $1 returning blocked_until', [ip]);
      return row !== undefined && row.blocked_until !== null && clock.now() < row.blocked_until;
    },
  };
}
