import type { Clock } from './rate-limit.js';

export type RetryOptions = {
  /** Further attempts after the first, for network failures of operations marked safe to repeat. */
  retries: number;
  /** Delay cap of the first retry; it doubles with each one, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
};

export const defaultRetry: RetryOptions = { retries: 2, baseDelayMs: 200, maxDelayMs: 2_000 };

/** Full-jitter exponential backoff: a random delay between 0 and the attempt's cap. */
export function backoffDelay(retry: number, options: RetryOptions, random: () => number = Math.random): number {
  const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(random() * cap);
}

export async function withRetries<T>(
  attempt: () => Promise<T>,
  { idempotent, options, clock, random, signal, onGiveUp }: {
    idempotent: boolean;
    options: RetryOptions;
    clock: Clock;
    random?: () => number;
    signal?: AbortSignal;
    onGiveUp: (attempts: number, cause: unknown) => Error;
  },
): Promise<T> {
  const allowed = idempotent ? options.retries : 0;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (cause) {
      // A caller's own abort ends the call at once; only failures of the network are worth another try.
      if (signal?.aborted || retry >= allowed) throw onGiveUp(retry + 1, cause);
      await clock.sleep(backoffDelay(retry, options, random), signal);
    }
  }
}
