export type RetryOptions = {
  /** Delay cap of the first retry; it doubles with each one, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest `Retry-After` the client waits; an answer asking for longer is returned, not retried. */
  maxRetryAfterMs: number;
};

export const defaultRetry: RetryOptions = { baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };
export const defaultMaxRetries = 2;

/** Full-jitter exponential backoff: a random delay between 0 and the attempt's cap. */
export function backoffDelay(retry: number, options: RetryOptions, random: () => number = Math.random): number {
  const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(random() * cap);
}

/** Answers worth another attempt of an operation that is safe to repeat: the server or a proxy failed. */
export const retryableStatus = (status: number): boolean => status >= 500 && status <= 504 && status !== 501;

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  const ms = Number.isNaN(seconds) ? Date.parse(value) - now : seconds * 1000;
  return Number.isNaN(ms) ? undefined : Math.max(0, ms);
}
