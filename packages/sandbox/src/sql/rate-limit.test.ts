// The rate limit counted in the database: two limiters (two sandbox instances) on one database share each
// address's count, the (perMinute + 1)th request is refused whichever takes it, even when all arrive at
// once, and the memory limiter's rules hold (window, block, fresh window after the block, unblock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { createRateLimiter } from '../rate-limit.js';
import type { Database } from './database.js';
import { twoHandleEngines } from './two-instances.test-helper.js';
import { createSqlRateLimiter, rateLimitTables } from './rate-limit.js';

const perMinute = 600;
const blockMs = 3_600_000;


describe.each(twoHandleEngines)('%s', (_kind, open) => {
  let first: Database;
  let second: Database;
  beforeAll(async () => {
    [first, second] = await open();
    for (const statement of rateLimitTables) await first.query(statement);
  }, 60_000);
  afterAll(async () => {
    await first?.close();
    if (second !== first) await second?.close();
  });

  // The reference's 600 where it is the point; a smaller limit for the other rules keeps the tests quick.
  const pair = (limit = perMinute) => {
    const clock = manualClock();
    const limiter = (database: Database) => createRateLimiter({ perMinute: limit, blockMs, clock, database });
    return { clock, limit, a: limiter(first), b: limiter(second) };
  };

  it('shares the count: the 601st request in a minute is refused whichever limiter takes it', async () => {
    for (const last of ['a', 'b'] as const) {
      const { a, b } = pair();
      const ip = `10.0.0.${last === 'a' ? 1 : 2}`;
      for (let i = 0; i < perMinute; i++) expect(await (i % 2 ? a : b).allow(ip)).toBe(true);
      expect(await (last === 'a' ? a : b).allow(ip)).toBe(false);
      // Blocked on both now.
      expect(await a.allow(ip)).toBe(false);
      expect(await b.allow(ip)).toBe(false);
    }
  });

  it('allows exactly 600 of 1,000 requests that arrive at once on both', async () => {
    const { a, b } = pair();
    const answers = await Promise.all(Array.from({ length: 1_000 }, (_, i) => (i % 2 ? a : b).allow('10.0.1.1')));
    expect(answers.filter(Boolean)).toHaveLength(perMinute);
  });

  it('answers a burst from one address in its order of arrival: the first ones allowed, the rest refused, the count shown as the memory limiter shows it', async () => {
    const { a, b, limit } = pair(20);
    // One turn of the event loop: each limiter counts its share together.
    const answers = await Promise.all(Array.from({ length: 30 }, () => a.allow('10.0.9.1')));
    expect(answers).toEqual([...Array.from({ length: limit }, () => true), ...Array.from({ length: 30 - limit }, () => false)]);
    expect(await b.allow('10.0.9.1')).toBe(false);
    expect((await b.addresses()).find((row) => row.ip === '10.0.9.1')).toMatchObject({ requests: limit + 1 });
  });

  it('counts each address apart', async () => {
    const { a, b, limit } = pair(20);
    for (let i = 0; i < limit; i++) await a.allow('10.0.2.1');
    expect(await b.allow('10.0.2.1')).toBe(false);
    expect(await b.allow('10.0.2.2')).toBe(true);
  });

  it('opens a new window a minute after the first request of the last one', async () => {
    const { a, b, clock, limit } = pair(20);
    for (let i = 0; i < limit; i++) await a.allow('10.0.3.1');
    clock.advance(59_999);
    expect(await b.allow('10.0.3.2')).toBe(true); // another address, to check the clock moved on both
    clock.advance(1);
    expect(await b.allow('10.0.3.1')).toBe(true); // a fresh window: the one over the limit never came
  });

  it('keeps an address blocked for the block time, then opens a fresh window', async () => {
    const { a, b, clock, limit } = pair(20);
    for (let i = 0; i <= limit; i++) await a.allow('10.0.4.1');
    clock.advance(blockMs - 1);
    expect(await b.allow('10.0.4.1')).toBe(false);
    clock.advance(1);
    for (let i = 0; i < limit; i++) expect(await (i % 2 ? a : b).allow('10.0.4.1')).toBe(true);
    expect(await a.allow('10.0.4.1')).toBe(false);
  });

  it('shows the addresses and lifts a block on every instance', async () => {
    const { a, b, clock, limit } = pair(20);
    await a.allow('10.0.5.1');
    for (let i = 0; i <= limit; i++) await a.allow('10.0.5.2');
    const shown = (await b.addresses()).filter((address) => address.ip.startsWith('10.0.5.'));
    expect(shown).toEqual([
      { ip: '10.0.5.1', requests: 1, windowStart: clock.now(), blockedUntil: null },
      { ip: '10.0.5.2', requests: limit + 1, windowStart: clock.now(), blockedUntil: clock.now() + blockMs },
    ]);
    expect(await b.unblock('10.0.5.2')).toBe(true);
    expect(await b.unblock('10.0.5.1')).toBe(false);
    expect(await a.allow('10.0.5.2')).toBe(true);
  });

  it('deletes the rows of addresses whose window and block have ended, and keeps the others', async () => {
    const clock = manualClock();
    const limiter = createSqlRateLimiter({ database: first, perMinute: 2, blockMs: 120_000, clock, sweepEvery: 1 });
    const rows = async () => (await first.query<{ ip: string }>("select ip from rate_limit_hits where ip like '10.0.7.%' order by ip", [])).map((row) => row.ip);
    await limiter.allow('10.0.7.1'); // a window that ends at +60 s
    for (let i = 0; i < 3; i++) await limiter.allow('10.0.7.2'); // blocked until +120 s
    clock.advance(60_000);
    await limiter.allow('10.0.7.3'); // sweeps, then opens its own window
    expect(await rows()).toEqual(['10.0.7.2', '10.0.7.3']);
    clock.advance(60_000);
    await limiter.allow('10.0.7.4');
    expect(await rows()).toEqual(['10.0.7.4']);
  });

  it('forgets every address on reset', async () => {
    const { a, b, limit } = pair(20);
    for (let i = 0; i <= limit; i++) await a.allow('10.0.6.1');
    await b.reset();
    expect(await a.allow('10.0.6.1')).toBe(true);
  });
});
