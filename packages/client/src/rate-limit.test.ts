import { describe, expect, it, vi } from 'vitest';
import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClient, createLegacyClient } from './index.js';
import { createThrottle, memoryStore, sharedThrottle, systemClock, type ThrottleStore } from './rate-limit.js';
import { baseUrl, fakeClock, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';
import { settle, settled, virtualClock } from './virtual-clock.test-helper.js';

/** Starts `count` acquisitions and records when each one got through. */
function acquireMany(throttle: ReturnType<typeof createThrottle>, clock: { now(): number }, count: number, signal?: AbortSignal) {
  const times: number[] = [];
  const done = Array.from({ length: count }, () => throttle.acquire(signal).then(() => void times.push(clock.now())));
  return { times, done };
}

describe('the throttle', () => {
  it('lets a full budget through at once, then holds the next request until the first send is 61 s old', async () => {
    const clock = virtualClock();
    const throttle = createThrottle(3, clock);
    const { times } = acquireMany(throttle, clock, 4);
    await clock.advance(60_999);
    expect(times).toEqual([0, 0, 0]);
    await clock.advance(1);
    expect(times).toEqual([0, 0, 0, 61_000]);
  });

  it('keeps exactly the window when told to keep no margin', async () => {
    const clock = virtualClock();
    const throttle = createThrottle(3, { clock, marginMs: 0 });
    const { times } = acquireMany(throttle, clock, 4);
    await clock.advance(59_999);
    expect(times).toEqual([0, 0, 0]);
    await clock.advance(1);
    expect(times).toEqual([0, 0, 0, 60_000]);
  });

  it('never lets a window hold more than the budget, however the sends were spread', async () => {
    const clock = virtualClock();
    const throttle = createThrottle(3, clock);
    const times: number[] = [];
    await settled(throttle.acquire().then(() => times.push(clock.now())));
    await clock.advance(30_000);
    const rest = acquireMany(throttle, clock, 4);
    await clock.runAll();
    // A bucket refilling 3 a minute would have let the 4th go at 30 s; the window of [0, 61 s) holds 3.
    expect([...times, ...rest.times]).toEqual([0, 30_000, 30_000, 61_000, 91_000]);
  });

  it('serves waiting requests first come, first served', async () => {
    const clock = virtualClock();
    const throttle = createThrottle(1, clock);
    const order: number[] = [];
    const done = [0, 1, 2, 3].map((i) => throttle.acquire().then(() => order.push(i)));
    await clock.runAll();
    await settled(Promise.all(done));
    expect(order).toEqual([0, 1, 2, 3]);
    expect(clock.now()).toBe(183_000);
  });

  it('drops a waiting request whose signal aborts, with the signal’s reason, and lets the next one take its turn', async () => {
    const clock = virtualClock();
    const throttle = createThrottle(1, clock);
    await settled(throttle.acquire());
    const controller = new AbortController();
    const aborted = throttle.acquire(controller.signal);
    const next = acquireMany(throttle, clock, 1);
    await clock.advance(10_000);
    controller.abort(new Error('caller gave up'));
    await expect(settled(aborted)).rejects.toThrow('caller gave up');
    await clock.advance(51_000);
    expect(next.times).toEqual([61_000]);
  });

  it('rejects at once for a signal that has already aborted, without using the budget', async () => {
    const clock = virtualClock();
    const throttle = createThrottle(1, clock);
    await expect(throttle.acquire(AbortSignal.abort(new Error('late')))).rejects.toThrow('late');
    const { times } = acquireMany(throttle, clock, 1);
    await settle();
    expect(times).toEqual([0]);
  });

  it('gives up waiting when a real timeout fires, and stops its own timer once nobody waits', async () => {
    const throttle = createThrottle(1);
    await settled(throttle.acquire());
    const started = Date.now();
    await expect(throttle.acquire(AbortSignal.timeout(50))).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(1_000);
    // vitest would hang on a 60 s timer kept alive; the test ending at all shows the pump stopped.
  });

  it('fails the waiting request when its store fails, and goes on with the next', async () => {
    const clock = virtualClock();
    let calls = 0;
    const store: ThrottleStore = {
      take: async () => {
        calls++;
        if (calls === 1) throw new Error('store unreachable');
        return 0;
      },
    };
    const throttle = createThrottle(10, { clock, store });
    const first = throttle.acquire();
    const second = throttle.acquire();
    await expect(settled(first)).rejects.toThrow('store unreachable');
    await expect(settled(second)).resolves.toBeUndefined();
  });

  it('waits as long as a shared store says before asking it again', async () => {
    const clock = virtualClock();
    const answers = [5_000, 0];
    const asked: number[] = [];
    const store: ThrottleStore = { take: async () => (asked.push(clock.now()), answers.shift() ?? 0) };
    const throttle = createThrottle(10, { clock, store });
    const { times } = acquireMany(throttle, clock, 1);
    await clock.runAll();
    expect(asked).toEqual([0, 5_000]);
    expect(times).toEqual([5_000]);
  });

  it('is not held up for an hour when the wall clock is set back an hour', async () => {
    const throttle = createThrottle(2);
    await settled(throttle.acquire());
    await settled(throttle.acquire());
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() - 3_600_000);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const controller = new AbortController();
    const waiting = throttle.acquire(controller.signal);
    await settle();
    const delays = timers.mock.calls.map((call) => Number(call[1]));
    vi.restoreAllMocks();
    controller.abort(new Error('done'));
    await expect(settled(waiting)).rejects.toThrow('done');
    expect(delays.length).toBeGreaterThan(0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(61_000);
  });

  it('rejects a budget below one request a minute', () => {
    expect(() => createThrottle(0)).toThrow(RangeError);
    expect(() => createThrottle(0.5)).toThrow(RangeError);
    expect(() => createThrottle(Number.NaN)).toThrow(RangeError);
    expect(() => createThrottle(10, { windowMs: -5_000 })).toThrow(RangeError);
    expect(() => createThrottle(10, { marginMs: -1 })).toThrow(RangeError);
  });
});

describe('the throttle of clients', () => {
  it('keeps a default client at 600 requests in any minute', async () => {
    const clock = fakeClock();
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const idv = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, retry: false });
    const times: number[] = [];
    for (let i = 0; i < 601; i++) {
      await settled(idv.listGroups());
      times.push(clock.now());
    }
    expect(sent).toHaveLength(601);
    expect(times[599]).toBe(0);
    expect(times[600]).toBe(61_000);
  });

  it('shares one default budget between every client of the process', async () => {
    const clock = virtualClock();
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const a = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, retry: false });
    const b = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, retry: false });
    const calls = Array.from({ length: 601 }, (_, i) => (i % 2 ? a : b).listGroups());
    await clock.advance(60_999);
    expect(sent).toHaveLength(600);
    await clock.advance(1);
    await settled(Promise.all(calls));
    expect(sent).toHaveLength(601);
    expect(sharedThrottle(clock)).toBe(sharedThrottle(clock));
  });

  it('shares the default budget between the current and the legacy client too', async () => {
    const clock = virtualClock();
    const { fetch, sent } = fakeFetch(() => json({ result: 'approved' }));
    const idv = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, retry: false });
    const legacy = createLegacyClient({ companyKey: fakeKey, baseUrl, fetch, clock, retry: false });
    const calls = Array.from({ length: 601 }, (_, i) => (i < 300 ? idv.listGroups() : legacy.getResult({ session_token: 'session-1' })));
    await settle();
    expect(sent).toHaveLength(600);
    await clock.advance(61_000);
    await settled(Promise.all(calls));
    expect(sent).toHaveLength(601);
  });

  it('shares the default budget even between two copies of the package in one process', async () => {
    // A second instance of the module, as a second version of the package in node_modules would be.
    const copy: typeof import('./rate-limit.js') = await import(/* @vite-ignore */ `./rate-limit.js?copy=${Date.now()}`);
    expect(copy.systemClock).not.toBe(systemClock);
    expect(copy.sharedThrottle()).toBe(sharedThrottle());
  });

  it('gives a client with its own perMinute a budget of its own, and none with rateLimit: false', async () => {
    const clock = virtualClock();
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const own = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, retry: false, rateLimit: { perMinute: 2 } });
    const off = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, retry: false, rateLimit: false });
    const calls = [own.listGroups(), own.listGroups(), own.listGroups(), ...Array.from({ length: 700 }, () => off.listGroups())];
    await settle();
    expect(sent).toHaveLength(702);
    await clock.advance(61_000);
    await settled(Promise.all(calls));
    expect(sent).toHaveLength(703);
  });

  it('can share one given throttle between two clients', async () => {
    const clock = virtualClock();
    const throttle = createThrottle(2, clock);
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const a = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, rateLimit: { throttle } });
    const b = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, rateLimit: { throttle } });
    const calls = [a.listGroups(), b.listGroups(), a.listGroups()];
    await settle();
    expect(sent).toHaveLength(2);
    await clock.advance(61_000);
    await settled(Promise.all(calls));
    expect(sent).toHaveLength(3);
  });

  it('stops waiting for the throttle when the call’s signal aborts', async () => {
    const clock = virtualClock();
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const idv = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, retry: false, rateLimit: { perMinute: 1 } });
    await settled(idv.listGroups());
    const controller = new AbortController();
    const waiting = idv.listGroups(undefined, { signal: controller.signal });
    await clock.advance(1_000);
    controller.abort(new Error('no longer needed'));
    await expect(settled(waiting)).rejects.toBeDefined();
    await clock.advance(61_000);
    expect(sent).toHaveLength(1);
  });
});

describe('the system clock', () => {
  it('tells the wall-clock time, which Retry-After dates are read against', () => {
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(1_000);
  });

  it('sleeps as long as asked, with or without a signal, and leaves no listener on the signal', async () => {
    const signal = new AbortController().signal;
    const started = performance.now();
    await systemClock.sleep(20);
    await systemClock.sleep(20, signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('stops sleeping when its signal aborts, with the signal’s reason, and leaves no listener', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const sleeping = systemClock.sleep(1_000, controller.signal);
    setTimeout(() => controller.abort(new Error('caller gave up')), 10);
    await expect(sleeping).rejects.toThrow('caller gave up');
    expect(performance.now() - started).toBeLessThan(900);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('does not sleep at all for a signal that has already aborted', async () => {
    await expect(systemClock.sleep(50, AbortSignal.abort(new Error('too late')))).rejects.toThrow('too late');
  });
});

describe('the throttle’s edges', () => {
  it('names what is wrong with its settings', () => {
    expect(() => createThrottle(0)).toThrow(new RangeError('rateLimit.perMinute must be a number of at least 1'));
    for (const settings of [{ windowMs: 0, marginMs: 0 }, { windowMs: -5_000 }, { marginMs: -1 }, { windowMs: Number.NaN }]) {
      expect(() => createThrottle(10, settings), JSON.stringify(settings)).toThrow(new RangeError('windowMs must be positive and marginMs not negative'));
    }
    expect(() => createThrottle(10, { windowMs: 1, marginMs: 0 })).not.toThrow();
  });

  it('on the real clock, lets a request go when the window has passed even if the wall clock was set back meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    try {
      const throttle = createThrottle(2);
      await settled(throttle.acquire());
      await settled(throttle.acquire());
      vi.setSystemTime(Date.now() - 3_600_000);
      let through = false;
      const waiting = throttle.acquire().then(() => (through = true));
      await vi.advanceTimersByTimeAsync(60_999);
      expect(through).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await settled(waiting);
      expect(through).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves no listener on a long-lived signal once a waiting request got through, or failed with its store', async () => {
    const clock = virtualClock();
    const signal = new AbortController().signal;
    const throttle = createThrottle(1, clock);
    await settled(throttle.acquire(signal));
    const waiting = throttle.acquire(signal);
    await settle();
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    await clock.advance(61_000);
    await settled(waiting);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);

    const failing = createThrottle(1, { clock, store: { take: async () => Promise.reject(new Error('store unreachable')) } });
    const failed = failing.acquire(signal).catch((error: unknown) => error);
    await settle();
    expect(await Promise.race([failed, 'still waiting'])).toEqual(new Error('store unreachable'));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('stops its own sleep once the only waiting request gave up', async () => {
    const clock = virtualClock();
    const throttle = createThrottle(1, clock);
    await settled(throttle.acquire());
    const controller = new AbortController();
    const waiting = throttle.acquire(controller.signal);
    await settle();
    expect(clock.pending).toBe(1);
    controller.abort(new Error('gave up'));
    await expect(settled(waiting)).rejects.toThrow('gave up');
    await settle();
    expect(clock.pending).toBe(0);
  });

  it('asks a shared store again only when the wait it named is over, though a waiting request gave up meanwhile', async () => {
    const clock = virtualClock();
    const answers = [5_000, 0, 0];
    const asked: number[] = [];
    const throttle = createThrottle(10, { clock, store: { take: async () => (asked.push(clock.now()), answers.shift() ?? 0) } });
    const controller = new AbortController();
    const leaving = throttle.acquire(controller.signal);
    const staying = throttle.acquire();
    await clock.advance(1_000);
    controller.abort(new Error('gave up'));
    await expect(settled(leaving)).rejects.toThrow('gave up');
    await clock.runAll();
    await settled(staying);
    expect(asked).toEqual([0, 5_000]);
  });

  it('asks a shared store one request at a time, from the head of the queue', async () => {
    const clock = virtualClock();
    let asking = 0;
    let most = 0;
    const store: ThrottleStore = {
      take: async () => {
        most = Math.max(most, ++asking);
        await settle();
        asking--;
        return 0;
      },
    };
    const throttle = createThrottle(10, { clock, store });
    const order: number[] = [];
    await settled(Promise.all([0, 1, 2, 3].map((i) => throttle.acquire().then(() => order.push(i)))));
    expect(order).toEqual([0, 1, 2, 3]);
    expect(most).toBe(1);
  });

  it('answers the only waiting request with its store’s failure, and serves the next one', async () => {
    const clock = virtualClock();
    let calls = 0;
    const throttle = createThrottle(10, { clock, store: { take: async () => (calls++ === 0 ? Promise.reject(new Error('store unreachable')) : 0) } });
    const first = throttle.acquire().catch((error: unknown) => error);
    await settle();
    expect(await Promise.race([first, 'still waiting'])).toEqual(new Error('store unreachable'));
    await expect(settled(throttle.acquire())).resolves.toBeUndefined();
  });

  it('does not crash the process when a request gives up while a shared store is being asked', async () => {
    // An unhandled rejection ends a Node process; record any while the store answers after the caller left.
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      for (const answer of [() => 0, () => Promise.reject(new Error('store unreachable'))]) {
        let release!: () => void;
        const store: ThrottleStore = { take: () => new Promise<void>((resolve) => (release = resolve)).then(answer) };
        const throttle = createThrottle(10, { clock: virtualClock(), store });
        const controller = new AbortController();
        const leaving = throttle.acquire(controller.signal);
        await settle();
        controller.abort(new Error('gave up'));
        await expect(settled(leaving)).rejects.toThrow('gave up');
        release();
        await settle();
        await settle();
      }
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(unhandled).toEqual([]);
  });
});

describe('the shared default throttle', () => {
  it('is a throttle, the one a client made without rateLimit uses', async () => {
    await expect(settled(sharedThrottle().acquire())).resolves.toBeUndefined();
  });

  it('is kept under the global key that every version of the package looks for', () => {
    // Other versions of @idv-toolkit/client in the same process find it under this key: it must not change.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('@idv-toolkit/client:shared-throttle')]).toBe(sharedThrottle());
  });
});

describe('the in-process log', () => {
  it('keeps only about the sends of the last window, however long the process runs', () => {
    // The heap is measured after a full collection, before and after half a million sends (a busy process's
    // day); kept whole, their times alone would take about 4 MB.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let now = 0;
    const store = memoryStore({ now: () => now });
    gc();
    const before = process.memoryUsage().heapUsed;
    let refused = 0;
    for (let i = 0; i < 500_000; i++, now++) if (store.take(1_000, 100) !== 0) refused++;
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(refused).toBe(0);
    expect(grown).toBeLessThan(1_000_000);
    // And it still counts right: the window holds the last 99 sends, the oldest 1 ms from leaving it.
    expect(store.take(99, 100)).toBe(1);
    expect(store.take(100, 100)).toBe(0);
  });
});
