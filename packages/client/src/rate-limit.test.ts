import { describe, expect, it } from 'vitest';
import { createClient } from './index.js';
import { createThrottle } from './rate-limit.js';
import { baseUrl, fakeClock, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

describe('the throttle', () => {
  it('lets a full minute of requests through at once, then one per refill interval', async () => {
    const clock = fakeClock();
    const throttle = createThrottle(3, clock);
    for (let i = 0; i < 3; i++) await throttle.acquire();
    expect(clock.sleeps).toEqual([]);
    await throttle.acquire();
    expect(clock.sleeps).toEqual([20_000]);
    expect(clock.now()).toBe(20_000);
  });

  it('refills over time, never above the per-minute budget', async () => {
    const clock = fakeClock();
    const throttle = createThrottle(3, clock);
    for (let i = 0; i < 3; i++) await throttle.acquire();
    clock.advance(10 * 60_000);
    for (let i = 0; i < 3; i++) await throttle.acquire();
    expect(clock.sleeps).toEqual([]);
    await throttle.acquire();
    expect(clock.sleeps).toEqual([20_000]);
  });

  it('keeps a client at 600 requests in its first minute by default', async () => {
    const clock = fakeClock();
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const idv = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, retry: false });
    const times: number[] = [];
    for (let i = 0; i < 601; i++) {
      await idv.listGroups();
      times.push(clock.now());
    }
    expect(sent).toHaveLength(601);
    expect(times.filter((t) => t < 60_000)).toHaveLength(601);
    expect(times[599]).toBe(0);
    expect(times[600]).toBe(100);
  });

  it('can be shared by two clients that leave from one IP', async () => {
    const clock = fakeClock();
    const throttle = createThrottle(2, clock);
    const { fetch } = fakeFetch(() => json({ result: [] }));
    const a = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, rateLimit: { throttle } });
    const b = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, rateLimit: { throttle } });
    await a.listGroups();
    await b.listGroups();
    expect(clock.sleeps).toEqual([]);
    await a.listGroups();
    expect(clock.sleeps).toEqual([30_000]);
  });

  it('rejects a budget that is not a positive number', () => {
    expect(() => createThrottle(0)).toThrow(RangeError);
  });
});
