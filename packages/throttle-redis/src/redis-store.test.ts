// The store against a real redis-server (started on a free port by redis-server.test-helper.ts).
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRedisStore, createRedisThrottle } from './index.js';

const url = inject('redisUrl');
const admin = new Redis(url);
afterAll(() => admin.quit());

/** A budget name of its own for each test, so tests never share a log. */
const budget = () => `test-${randomUUID()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the Redis store', () => {
  it('records up to the limit, then answers how long until the oldest send leaves the window', async () => {
    const store = createRedisStore({ redis: admin, budget: budget() });
    expect([await store.take(3, 2_000), await store.take(3, 2_000), await store.take(3, 2_000)]).toEqual([0, 0, 0]);
    const wait = await store.take(3, 2_000);
    // About the whole window (less the moments the four takes themselves took).
    expect(wait).toBeGreaterThan(1_000);
    expect(wait).toBeLessThanOrEqual(2_000);
    expect(await admin.zcard(store.key)).toBe(3);
    // Timers may fire a millisecond early on Redis's clock: a little slack before asking again.
    await sleep(wait + 20);
    expect(await store.take(3, 2_000)).toBe(0);
    // The three old sends were trimmed; the log holds only the new one.
    expect(await admin.zcard(store.key)).toBe(1);
  });

  it('lets exactly `limit` of many simultaneous takes from several connections through', async () => {
    const name = budget();
    const connections = Array.from({ length: 5 }, () => new Redis(url));
    const stores = connections.map((redis) => createRedisStore({ redis, budget: name }));
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => stores[i % 5]!.take(10, 60_000)));
    expect(answers.filter((wait) => wait === 0)).toHaveLength(10);
    expect(answers.filter((wait) => wait > 59_000)).toHaveLength(50);
    await Promise.all(connections.map((redis) => redis.quit()));
  });

  it('stamps sends with the Redis server’s clock, not the caller’s', async () => {
    const store = createRedisStore({ redis: admin, budget: budget() });
    const [seconds, micros] = await admin.time();
    await store.take(5, 60_000);
    const [, score] = await admin.zrange(store.key, '0', '0', 'WITHSCORES');
    const serverNow = Number(seconds) * 1e6 + Number(micros);
    expect(Number(score) - serverNow).toBeGreaterThanOrEqual(0);
    expect(Number(score) - serverNow).toBeLessThan(5e6);
  });

  it('keeps budgets apart and lets an idle budget’s key expire', async () => {
    const a = createRedisStore({ redis: admin, budget: budget() });
    const b = createRedisStore({ redis: admin, budget: budget() });
    expect(await a.take(1, 60_000)).toBe(0);
    expect(await b.take(1, 60_000)).toBe(0);
    expect(await a.take(1, 60_000)).toBeGreaterThan(0);
    const ttl = await admin.pttl(a.key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('sends the script again when the server has forgotten it', async () => {
    const store = createRedisStore({ redis: admin, budget: budget() });
    await admin.script('FLUSH');
    expect(await store.take(2, 60_000)).toBe(0);
    expect(await store.take(2, 60_000)).toBe(0);
  });

  it('connects from a URL and closes its own connection', async () => {
    const store = createRedisStore({ redis: url, budget: budget() });
    expect(await store.take(1, 60_000)).toBe(0);
    await store.close();
    await expect(store.take(1, 60_000)).rejects.toThrow();
  });
});

describe('the Redis throttle', () => {
  it('holds a request over the shared budget, and drops it when its signal aborts', async () => {
    const name = budget();
    const first = createRedisThrottle({ redis: admin, budget: name, perMinute: 2 });
    const second = createRedisThrottle({ redis: admin, budget: name, perMinute: 2 });
    await first.acquire();
    await second.acquire();
    const started = Date.now();
    await expect(second.acquire(AbortSignal.timeout(300))).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await admin.zcard(first.store.key)).toBe(2);
  });

  it('fails a waiting request with the store’s error when Redis cannot be reached', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
    unreachable.on('error', () => undefined);
    const throttle = createRedisThrottle({ redis: unreachable, budget: budget() });
    await expect(throttle.acquire()).rejects.toThrow();
    unreachable.disconnect();
  });
});
