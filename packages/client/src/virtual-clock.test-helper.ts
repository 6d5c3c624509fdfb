// A clock whose time moves only when a test says so, with real timers: `sleep` resolves when the test
// advances past its deadline (in deadline order), or rejects when its signal aborts. Unlike fakeClock,
// whose sleep jumps time forward at once, several waiters can sleep at the same time here.
import type { Clock } from './rate-limit.js';

type Timer = { at: number; seq: number; fire(): void };

/** Lets every pending promise callback run (the microtask queue drains before the next macrotask). */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The promise's outcome once the callbacks now pending have run, or a failure saying it still waits. On a
 * virtual clock nothing else can move it, so awaiting it bare would hang the test (and a mutation run, up
 * to its timeout and a restart) where the throttle lost a request.
 */
export async function settled<T>(promise: PromiseLike<T>, turns = 10): Promise<T> {
  const outcome: { done: boolean } = { done: false };
  const watched = Promise.resolve(promise).finally(() => (outcome.done = true));
  watched.catch(() => {});
  for (let turn = 0; turn < turns && !outcome.done; turn++) await settle();
  if (!outcome.done) throw new Error(`still waiting after ${turns} turns of the event loop`);
  return watched;
}

export function virtualClock(start = 0) {
  let now = start;
  let seq = 0;
  const timers: Timer[] = [];
  const clock = {
    now: () => now,
    sleep(ms: number, signal?: AbortSignal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          const at = timers.indexOf(timer);
          if (at >= 0) timers.splice(at, 1);
          reject(signal!.reason);
        };
        const timer: Timer = {
          at: now + Math.max(0, ms),
          seq: seq++,
          fire: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        timers.push(timer);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    /** Pending timers. */
    get pending() {
      return timers.length;
    },
    /** Moves time to `target`, firing each timer due on the way at its own time. */
    async advanceTo(target: number) {
      await settle();
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (!next || next.at > target) break;
        timers.shift();
        now = Math.max(now, next.at);
        next.fire();
        await settle();
      }
      now = Math.max(now, target);
    },
    advance(ms: number) {
      return clock.advanceTo(now + ms);
    },
    /** Fires timers until none is left (at most `limit`, against a loop that never ends). */
    async runAll(limit = 100_000) {
      await settle();
      for (let i = 0; timers.length > 0 && i < limit; i++) await clock.advanceTo(Math.min(...timers.map((t) => t.at)));
    },
  };
  return clock satisfies Clock;
}
