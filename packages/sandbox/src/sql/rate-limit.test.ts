// The rate limit counted in the database: two limiters (two sandbox instances) on one database share each
// address's count, the (perMinute + 1)th request is refused whichever takes it, even when all arrive at
// once, and the memory limiter's rules hold (window, block, fresh window after the block, unblock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { createRateLimiter, type AddressState } from '../rate-limit.js';
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

  // What the console's rate-limit page shows comes from `addresses()`: the same as the memory limiter's
  // for the same requests at the same times.
  const both = (limit: number, block: number) => {
    const clock = manualClock();
    return { clock, sql: createSqlRateLimiter({ database: first, perMinute: limit, blockMs: block, clock }), memory: createRateLimiter({ perMinute: limit, blockMs: block, clock }) };
  };
  const shownOf = async (limiter: { addresses(): AddressState[] | Promise<AddressState[]> }, ip: string) => (await limiter.addresses()).find((address) => address.ip === ip);

  it('shows a block that outlasts its window as the memory limiter does: no requests, no window, the block’s end', async () => {
    const { clock, sql, memory } = both(2, 120_000);
    const start = clock.now();
    for (let i = 0; i < 3; i++) expect([await sql.allow('10.0.8.1'), memory.allow('10.0.8.1')]).toEqual([i < 2, i < 2]);
    clock.advance(59_999);
    expect(await shownOf(sql, '10.0.8.1')).toEqual({ ip: '10.0.8.1', requests: 3, windowStart: start, blockedUntil: start + 120_000 });
    clock.advance(1); // the window's minute is over, the block runs on
    const shown = { ip: '10.0.8.1', requests: 0, windowStart: null, blockedUntil: start + 120_000 };
    expect(await shownOf(sql, '10.0.8.1')).toEqual(shown);
    expect(await shownOf(memory, '10.0.8.1')).toEqual(shown);
  });

  it('shows a block shorter than the window as over at its end, the window still counted, as the memory limiter does', async () => {
    const { clock, sql, memory } = both(2, 1_000);
    const start = clock.now();
    for (let i = 0; i < 3; i++) expect([await sql.allow('10.0.8.2'), memory.allow('10.0.8.2')]).toEqual([i < 2, i < 2]);
    clock.advance(999);
    expect(await shownOf(sql, '10.0.8.2')).toEqual({ ip: '10.0.8.2', requests: 3, windowStart: start, blockedUntil: start + 1_000 });
    clock.advance(1);
    const shown = { ip: '10.0.8.2', requests: 3, windowStart: start, blockedUntil: null };
    expect(await shownOf(sql, '10.0.8.2')).toEqual(shown);
    expect(await shownOf(memory, '10.0.8.2')).toEqual(shown);
  });

  it('unblocks an address never seen, or whose block has just ended, without failing, and says it was not blocked, as the memory limiter does', async () => {
    const { clock, sql, memory } = both(2, 1_000);
    expect([await sql.unblock('10.0.8.3'), memory.unblock('10.0.8.3')]).toEqual([false, false]);
    for (let i = 0; i < 3; i++) expect([await sql.allow('10.0.8.4'), memory.allow('10.0.8.4')]).toEqual([i < 2, i < 2]);
    clock.advance(1_000);
    expect([await sql.unblock('10.0.8.4'), memory.unblock('10.0.8.4')]).toEqual([false, false]);
    // Unblocked or not, it starts a fresh window.
    expect([await sql.allow('10.0.8.4'), memory.allow('10.0.8.4')]).toEqual([true, true]);
  });

  it('answers every request of a count that fails with the database’s error, and counts the next ones', async () => {
    let failNext = true;
    const failing: Database = {
      ...first,
      query: ((text: string, params?: unknown[]) => {
        if (failNext && text.includes('insert into rate_limit_hits')) {
          failNext = false;
          return Promise.reject(new Error('connection lost'));
        }
        return first.query(text, params);
      }) as Database['query'],
    };
    const limiter = createSqlRateLimiter({ database: failing, perMinute: 2, blockMs, clock: manualClock() });
    const outcomes = await Promise.allSettled([limiter.allow('10.0.8.5'), limiter.allow('10.0.8.5'), limiter.allow('10.0.8.5')]);
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error).message : outcome.value))).toEqual(['connection lost', 'connection lost', 'connection lost']);
    // Nothing was counted: the limit is whole for the next ones.
    expect(await Promise.all([limiter.allow('10.0.8.5'), limiter.allow('10.0.8.5'), limiter.allow('10.0.8.5')])).toEqual([true, true, false]);
  });

  it('forgets every address on reset', async () => {
    const { a, b, limit } = pair(20);
    for (let i = 0; i <= limit; i++) await a.allow('10.0.6.1');
    await b.reset();
    expect(await a.allow('10.0.6.1')).toBe(true);
  });
});
