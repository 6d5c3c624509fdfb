// Per-IP rate limit as the reference gives it: more than `perMinute` requests in a minute from one IP
// gets 529, and the IP stays blocked for `blockMs`. Hand-written rather than a library's because the
// sandbox's clock is injectable (tests move time through blocks); the window is a fixed minute per IP.
// In memory by default; with a `database`, counted there (sql/rate-limit.ts), so that several instances on
// one PostgreSQL share each address's count: then every method answers through a promise.
import type { Clock } from './clock.js';
import type { Database } from './sql/database.js';
import { createSqlRateLimiter, type SharedRateLimiter } from './sql/rate-limit.js';

export type { SharedRateLimiter };

/** One address's counter and block, as the console shows it (times in ms by the sandbox's clock). */
export type AddressState = { ip: string; requests: number; windowStart: number | null; blockedUntil: number | null };

export type RateLimiter = {
  allow(ip: string): boolean;
  reset(): void;
  /** Every tracked address with its counter and block (for the console). */
  addresses(): AddressState[];
  /** Lifts an address's block and starts its count afresh; false when it was not blocked. */
  unblock(ip: string): boolean;
};

type LimiterOptions = { perMinute: number; blockMs: number; clock: Clock; maxTracked?: number };

// The memory overload last, so that `ReturnType<typeof createRateLimiter>` stays the memory limiter.
export function createRateLimiter(options: LimiterOptions & { database: Database }): SharedRateLimiter;
export function createRateLimiter(options: LimiterOptions & { database?: undefined }): RateLimiter;
export function createRateLimiter(options: LimiterOptions & { database?: Database }): RateLimiter | SharedRateLimiter {
  return options.database ? createSqlRateLimiter({ ...options, database: options.database }) : createMemoryRateLimiter(options);
}

function createMemoryRateLimiter({ perMinute, blockMs, clock, maxTracked = 10_000 }: LimiterOptions): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const blockedUntil = new Map<string, number>();
  const forgetEnded = (now: number) => {
    for (const [ip, window] of windows) if (now - window.start >= 60_000) windows.delete(ip);
    for (const [ip, until] of blockedUntil) if (now >= until) blockedUntil.delete(ip);
  };
  return {
    allow(ip) {
      const now = clock.now();
      const until = blockedUntil.get(ip);
      if (until !== undefined) {
        if (now < until) return false;
        blockedUntil.delete(ip);
        windows.delete(ip);
      }
      let window = windows.get(ip);
      if (!window || now - window.start >= 60_000) {
        // Many addresses (a /64 of IPv6, say): forget the windows that ended, so the maps stay bounded.
        if (!window && windows.size >= maxTracked) forgetEnded(now);
        windows.set(ip, (window = { start: now, count: 0 }));
      }
      window.count += 1;
      if (window.count <= perMinute) return true;
      blockedUntil.set(ip, now + blockMs);
      return false;
    },
    reset() {
      windows.clear();
      blockedUntil.clear();
    },
    addresses() {
      const now = clock.now();
      return [...new Set([...windows.keys(), ...blockedUntil.keys()])].map((ip) => {
        const window = windows.get(ip);
        const until = blockedUntil.get(ip);
        const open = window !== undefined && now - window.start < 60_000;
        return { ip, requests: open ? window.count : 0, windowStart: open ? window.start : null, blockedUntil: until !== undefined && now < until ? until : null };
      });
    },
    unblock(ip) {
      const until = blockedUntil.get(ip);
      windows.delete(ip);
      blockedUntil.delete(ip);
      return until !== undefined && clock.now() < until;
    },
  };
}
