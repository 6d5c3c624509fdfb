// The client's throttle. The service answers the 601st request of a minute from one IP with 529 and then
// blocks that IP for an hour, so "usually under the limit" is not enough: the throttle keeps a log of its
// own send times and lets a request go only when fewer than `perMinute` sends lie in the last window,
// which holds however the service counts its minutes (a fixed minute or a sliding one).

/** What the throttle needs of time; tests pass a fake one. */
export type Clock = {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Waits until a request may go; rejects with the signal's reason if it aborts first. */
export type Throttle = { acquire(signal?: AbortSignal): Promise<void> };

/**
 * Where the log of sends lives: in this process by default, or shared by several processes (see
 * `@idv-toolkit/throttle-redis`). `take` records one send if fewer than `limit` lie in the last `windowMs`
 * and returns 0, or records nothing and returns how many milliseconds to wait before asking again.
 */
export type ThrottleStore = { take(limit: number, windowMs: number): number | Promise<number> };

export type ThrottleOptions = {
  /** Time source of the log and of the waiting (tests pass a fake one). */
  clock?: Clock;
  /** Keeps the log elsewhere, e.g. in Redis so that a fleet shares one budget. */
  store?: ThrottleStore;
  /** Length of the window in milliseconds (default 60 000, the service's minute). */
  windowMs?: number;
  /**
   * Kept on top of the window (default 1 000 ms). The service counts a request when it arrives, not when
   * it was sent; the first request on a new connection (TCP and TLS handshakes) can take far longer to
   * arrive than those after it, so two sends exactly a window apart can arrive less than one apart.
   */
  marginMs?: number;
};

const monotonicClock: Pick<Clock, 'now'> = { now: () => performance.now() };
const minute = 60_000;
const defaultMarginMs = 1_000;

/** The sliding log of one process: send times, oldest first, in an array that is compacted now and then. */
export function memoryStore(clock: Pick<Clock, 'now'> = systemClock): ThrottleStore {
  let log: number[] = [];
  let start = 0;
  return {
    take(limit, windowMs) {
      const now = clock.now();
      while (start < log.length && log[start]! <= now - windowMs) start++;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: these change only how often the log is copied, not what it counts; that it is compacted at all is pinned by the heap test ("keeps only about the sends of the last window").
      if (start > 1024 && start * 2 > log.length) {
        log = log.slice(start);
        start = 0;
      }
      if (log.length - start < limit) {
        log.push(now);
        return 0;
      }
      // Full: the (limit)th most recent send leaves the window first; wait until it has.
      return Math.min(windowMs, Math.max(1, log[log.length - limit]! + windowMs - now));
    },
  };
}

type Waiter = { resolve(): void; reject(reason: unknown): void; signal: AbortSignal | undefined; onAbort: () => void };

/**
 * At most `perMinute` requests in any rolling window of `windowMs` (60 s) plus `marginMs` (1 s): a sliding
 * log of send times, not a bucket, so no burst can go over. Requests that must wait are served first
 * come, first served; a waiting request whose `signal` aborts (the call's own, or its timeout) leaves the
 * queue at once.
 *
 * `createThrottle(600)` is a budget of its own; give the same throttle to every client that leaves from
 * one IP, or use the default that clients share (`sharedThrottle()`).
 */
export function createThrottle(perMinute: number, options: ThrottleOptions | Clock = {}): Throttle {
  if (!Number.isFinite(perMinute) || perMinute < 1) throw new RangeError('rateLimit.perMinute must be a number of at least 1');
  const settings: ThrottleOptions = 'now' in options ? { clock: options } : options;
  const clock = settings.clock ?? systemClock;
  const windowMs = (settings.windowMs ?? minute) + (settings.marginMs ?? defaultMarginMs);
  if (!Number.isFinite(windowMs) || windowMs <= 0 || (settings.marginMs ?? 0) < 0) throw new RangeError('windowMs must be positive and marginMs not negative');
  const limit = Math.floor(perMinute);
  // On the real clock the log reads a monotonic time: a wall clock set back by an hour would otherwise
  // leave every logged send an hour in the future, and hold every request for that hour.
  const store = settings.store ?? memoryStore(clock === systemClock ? monotonicClock : clock);
  // Only the in-process log answers synchronously; a shared store is asked by the queue's head alone.
  // Stryker disable next-line ConditionalExpression: without the fast path a free slot is taken through the queue instead, in the same order, a few microtask turns later.
  const fastPath = settings.store === undefined;
  const queue: Waiter[] = [];
  let pumping = false;
  // Ends the pump's sleep when every waiter has left, so an idle process is not kept alive by it.
  let idle: AbortController | undefined;

  const leave = (waiter: Waiter) => {
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    const at = queue.indexOf(waiter);
    // Stryker disable next-line ConditionalExpression: a waiter leaves once (served or failed, its abort listener is removed first), so it is always still in the queue here.
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) idle?.abort();
  };

  async function pump() {
    pumping = true;
    try {
      while (queue.length > 0) {
        let wait: number;
        try {
          wait = await store.take(limit, windowMs);
        } catch (error) {
          // The store failed (e.g. Redis is unreachable): the request at the head fails with its error.
          const head = queue[0];
          if (!head) break;
          leave(head);
          head.reject(error);
          continue;
        }
        if (wait <= 0) {
          // The send was recorded; if its waiter left meanwhile, the next one uses it.
          const head = queue.shift();
          if (!head) break;
          head.signal?.removeEventListener('abort', head.onAbort);
          head.resolve();
          continue;
        }
        idle = new AbortController();
        try {
          await clock.sleep(wait, idle.signal);
        } catch {
          // Nobody waits any more.
        }
        idle = undefined;
      }
    } finally {
      pumping = false;
    }
  }

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      // Nobody waits and the log is in this process: a free slot is taken without a promise chain.
      // Stryker disable next-line ConditionalExpression,BooleanLiteral,EqualityOperator,LogicalOperator: the queue is empty whenever the pump is not running, and a request these send to the queue gets through in the same order, a few microtask turns later.
      const nobodyWaits = !pumping && queue.length === 0;
      if (fastPath && nobodyWaits && (store.take(limit, windowMs) as number) <= 0) return Promise.resolve();
      return enqueue(signal);
    },
  };

  function enqueue(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          leave(waiter);
          reject(signal!.reason);
        },
      };
      // Not `once`: leave() removes it, whichever way the waiter leaves.
      signal?.addEventListener('abort', waiter.onAbort);
      queue.push(waiter);
      if (!pumping) void pump();
    });
  }
}

const shared = new WeakMap<Clock, Throttle>();
const sharedKey: unique symbol = Symbol.for('@idv-toolkit/client:shared-throttle');

/**
 * The process's default throttle: every client made without `rateLimit` uses this one, so two clients
 * with default settings share the service's 600 requests a minute (the limit is per IP, not per client).
 */
export function sharedThrottle(clock: Clock = systemClock): Throttle {
  if (clock === systemClock) {
    // Kept on globalThis, so that two copies of this package in one process (two versions in
    // node_modules, say) still share one budget: the service counts the IP, not the copy.
    const registry = globalThis as { [sharedKey]?: Throttle };
    return (registry[sharedKey] ??= createThrottle(600));
  }
  let throttle = shared.get(clock);
  if (!throttle) shared.set(clock, (throttle = createThrottle(600, { clock })));
  return throttle;
}

/** The throttle a client's `rateLimit` option asks for: off, given, a budget of its own, or the shared default. */
export function throttleFor(rateLimit: { perMinute?: number; throttle?: Throttle } | false | undefined, clock: Clock = systemClock): Throttle | undefined {
  if (rateLimit === false) return undefined;
  if (rateLimit?.throttle) return rateLimit.throttle;
  if (rateLimit?.perMinute !== undefined) return createThrottle(rateLimit.perMinute, { clock });
  return sharedThrottle(clock);
}
