// The rate limit as a client sees it, at the edges of its arithmetic: a window of exactly one minute from
// an address's first request, a block of exactly the block time from the refused request, a fresh window
// after a block, and a bounded memory of addresses that forgets only what has ended. Over HTTP each
// address is a loopback address of its own (127.0.0.x); the manual clock moves time. What the limiter
// remembers (the console's rate-limit page, the memory bound) is read from the limiter itself.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from './clock.js';
import { createRateLimiter } from './rate-limit.js';
import { keyA, startTestSandbox } from './sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The status of one begin sent from `from`. */
function begin(url: string, from = '127.0.0.1') {
  return new Promise<number>((resolve, reject) => {
    const req = request(`${url}/begin`, { method: 'POST', localAddress: from, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ companyKey: keyA }));
  });
}

/** The statuses of `count` begins in a row from `from`. */
async function begins(url: string, count: number, from = '127.0.0.1') {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await begin(url, from));
  return statuses;
}

describe('the rate limit window', () => {
  it('lasts exactly one minute from the first request: at 59,999 ms the count goes on, at 60,000 ms it starts again', async () => {
    t = await startTestSandbox({ rateLimit: 3, blockSeconds: 3600 });
    expect(await begins(t.url, 3, '127.0.0.2')).toEqual([200, 200, 200]);
    t.clock.advance(59_999);
    expect(await begin(t.url, '127.0.0.2')).toBe(529);

    t.clock.advance(1_000_000);
    const start = t.clock.now();
    expect(await begins(t.url, 3, '127.0.0.3')).toEqual([200, 200, 200]);
    t.clock.set(start + 60_000);
    expect(await begins(t.url, 3, '127.0.0.3')).toEqual([200, 200, 200]);
    expect(await begin(t.url, '127.0.0.3')).toBe(529);
  });

  it('starts at an address\'s first request, not at a later one', async () => {
    t = await startTestSandbox({ rateLimit: 3, blockSeconds: 3600 });
    const start = t.clock.now();
    expect(await begin(t.url)).toBe(200);
    t.clock.set(start + 50_000);
    expect(await begins(t.url, 2)).toEqual([200, 200]);
    // The window of the first request has ended: a new one, though the last two were 10 s ago.
    t.clock.set(start + 60_000);
    expect(await begins(t.url, 3)).toEqual([200, 200, 200]);
    expect(await begin(t.url)).toBe(529);
  });
});

describe('the block', () => {
  it('lasts exactly the block time from the refused request, is not lengthened by requests while blocked, and is followed by a fresh window', async () => {
    t = await startTestSandbox({ rateLimit: 1, blockSeconds: 10 });
    const start = t.clock.now();
    expect(await begin(t.url)).toBe(200);
    t.clock.set(start + 1_000);
    expect(await begin(t.url)).toBe(529); // blocked until start + 11,000
    t.clock.set(start + 5_000);
    expect(await begin(t.url)).toBe(529);
    t.clock.set(start + 10_999);
    expect(await begin(t.url)).toBe(529);
    // Within the minute of the first request, yet the block's end gives a new window: one request, not zero.
    t.clock.set(start + 11_000);
    expect(await begin(t.url)).toBe(200);
    expect(await begin(t.url)).toBe(529);
  });

  it('of one address leaves the others alone, whatever their count', async () => {
    t = await startTestSandbox({ rateLimit: 2, blockSeconds: 10 });
    expect(await begins(t.url, 3, '127.0.0.2')).toEqual([200, 200, 529]);
    expect(await begins(t.url, 2, '127.0.0.3')).toEqual([200, 200]);
    expect(await begin(t.url, '127.0.0.3')).toBe(529);
    expect(await begin(t.url, '127.0.0.4')).toBe(200);
  });
});

describe('the addresses the limit remembers', () => {
  it('past maxTrackedAddresses, forgets ended windows only: a running window and a running block stay', async () => {
    t = await startTestSandbox({ rateLimit: 2, blockSeconds: 3600, limits: { maxTrackedAddresses: 2 } });
    const start = t.clock.now();
    expect(await begins(t.url, 2, '127.0.0.2')).toEqual([200, 200]); // at its limit
    expect(await begins(t.url, 3, '127.0.0.3')).toEqual([200, 200, 529]); // blocked
    // A third address while two are remembered: nothing has ended, so nothing is forgotten.
    expect(await begin(t.url, '127.0.0.4')).toBe(200);
    expect(await begin(t.url, '127.0.0.2')).toBe(529);
    expect(await begin(t.url, '127.0.0.3')).toBe(529);

    // A minute later the windows have ended but the blocks have not: a new address forgets windows only.
    t.clock.set(start + 60_000);
    expect(await begin(t.url, '127.0.0.5')).toBe(200);
    expect(await begin(t.url, '127.0.0.2')).toBe(529);
    expect(await begin(t.url, '127.0.0.3')).toBe(529);
    expect(await begins(t.url, 2, '127.0.0.4')).toEqual([200, 200]);
    expect(await begin(t.url, '127.0.0.4')).toBe(529);
  });
});

describe('what the limiter remembers', () => {
  const limiter = (options: { perMinute?: number; blockMs?: number; maxTracked?: number } = {}) => {
    const clock = manualClock();
    return { clock, start: clock.now(), limit: createRateLimiter({ perMinute: 2, blockMs: 120_000, clock, ...options }) };
  };
  const tracked = (limit: ReturnType<typeof createRateLimiter>) => limit.addresses().map((a) => a.ip).sort();

  it('lists each address with its count, window start and block end, and none of them once ended', () => {
    const { clock, start, limit } = limiter();
    limit.allow('a');
    clock.set(start + 10);
    limit.allow('b');
    limit.allow('b');
    expect(limit.allow('b')).toBe(false);
    const state = () => Object.fromEntries(limit.addresses().map(({ ip, ...rest }) => [ip, rest]));
    expect(state()).toEqual({ a: { requests: 1, windowStart: start, blockedUntil: null }, b: { requests: 3, windowStart: start + 10, blockedUntil: start + 120_010 } });
    clock.set(start + 59_999);
    expect(state().a).toEqual({ requests: 1, windowStart: start, blockedUntil: null });
    clock.set(start + 60_000);
    expect(state()).toEqual({ a: { requests: 0, windowStart: null, blockedUntil: null }, b: { requests: 3, windowStart: start + 10, blockedUntil: start + 120_010 } });
    clock.set(start + 120_009);
    expect(state().b).toEqual({ requests: 0, windowStart: null, blockedUntil: start + 120_010 });
    clock.set(start + 120_010);
    expect(state().b).toEqual({ requests: 0, windowStart: null, blockedUntil: null });
  });

  it('past maxTracked, forgets the windows and blocks that have ended when a new address comes, and only then', () => {
    const { clock, start, limit } = limiter({ maxTracked: 2 });
    limit.allow('a');
    limit.allow('b');
    clock.set(start + 59_999);
    limit.allow('c'); // nothing has ended: three remembered
    expect(tracked(limit)).toEqual(['a', 'b', 'c']);
    clock.set(start + 60_000);
    limit.allow('c'); // a known address: nothing forgotten
    expect(tracked(limit)).toEqual(['a', 'b', 'c']);
    limit.allow('d'); // a and b ended at 60,000; c's window runs until 119,999
    expect(tracked(limit)).toEqual(['c', 'd']);
  });

  it('forgets nothing while it holds fewer than maxTracked addresses', () => {
    const { clock, start, limit } = limiter({ maxTracked: 3 });
    limit.allow('a');
    clock.set(start + 60_000);
    limit.allow('b');
    expect(tracked(limit)).toEqual(['a', 'b']);
    limit.allow('c');
    expect(tracked(limit)).toEqual(['a', 'b', 'c']);
    limit.allow('d');
    expect(tracked(limit)).toEqual(['b', 'c', 'd']);
  });

  it('forgets a block at exactly its end, not before', () => {
    const { clock, start, limit } = limiter({ maxTracked: 1, blockMs: 100_000 });
    for (let i = 0; i < 3; i++) limit.allow('a'); // blocked until start + 100,000
    clock.set(start + 99_999);
    limit.allow('b');
    expect(tracked(limit)).toEqual(['a', 'b']);
    expect(limit.allow('a')).toBe(false);
    clock.set(start + 100_000);
    limit.allow('c');
    expect(tracked(limit)).toEqual(['b', 'c']);
  });

  it('unblocks a blocked address with a fresh count, and says false for one that is not blocked', () => {
    const { clock, start, limit } = limiter({ blockMs: 10_000 });
    for (let i = 0; i < 3; i++) limit.allow('a');
    expect(limit.allow('a')).toBe(false);
    expect(limit.unblock('a')).toBe(true);
    expect([limit.allow('a'), limit.allow('a'), limit.allow('a')]).toEqual([true, true, false]);
    clock.set(start + 10_000); // the block has ended but is still remembered
    expect(limit.unblock('a')).toBe(false);
    limit.allow('b');
    expect(limit.unblock('b')).toBe(false);
    expect(limit.unblock('nobody')).toBe(false);
  });

  it('forgets everything on reset: counts and blocks', () => {
    const { limit } = limiter();
    for (let i = 0; i < 3; i++) limit.allow('a');
    limit.allow('b');
    limit.allow('b');
    limit.reset();
    expect(limit.addresses()).toEqual([]);
    expect([limit.allow('a'), limit.allow('b'), limit.allow('b')]).toEqual([true, true, true]);
  });
});
