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
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export type Throttle = { acquire(signal?: AbortSignal): Promise<void> };

/**
 * A token bucket that keeps this client under `perMinute` requests in any minute: it starts full
 * (`perMinute` tokens, so a burst of that size goes at once) and refills continuously. A request that
 * finds the bucket empty waits for its token instead of reaching the service, whose answer to the
 * 601st request in a minute is a one-hour block.
 */
export function createThrottle(perMinute: number, clock: Clock = systemClock): Throttle {
  if (!Number.isFinite(perMinute) || perMinute <= 0) throw new RangeError('rateLimit.perMinute must be a positive number');
  const refillPerMs = perMinute / 60_000;
  let tokens = perMinute;
  let last = clock.now();
  let queue: Promise<void> = Promise.resolve();
  let queueIdle = true;

  const refill = () => {
    const now = clock.now();
    tokens = Math.min(perMinute, tokens + (now - last) * refillPerMs);
    last = now;
  };

  const takeOne = async (signal?: AbortSignal) => {
    refill();
    while (tokens < 1) {
      await clock.sleep(Math.ceil((1 - tokens) / refillPerMs), signal);
      refill();
    }
    tokens -= 1;
  };

  return {
    acquire(signal) {
      refill();
      // Fast path: a token is free and nobody waits before us.
      if (tokens >= 1 && queueIdle) {
        tokens -= 1;
        return Promise.resolve();
      }
      queueIdle = false;
      const turn = queue.then(() => takeOne(signal));
      const settled = turn.then(
        () => undefined,
        () => undefined,
      );
      queue = settled;
      settled.then(() => {
        if (queue === settled) queueIdle = true;
      });
      return turn;
    },
  };
}
