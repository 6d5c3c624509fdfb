import type { Clock, Throttle } from './rate-limit.js';
import type { RetryOptions } from './retry.js';

export type ClientOptions<Throw extends boolean = true> = {
  /** The company's secret key; put into every request body. Never logged, never in an error. */
  companyKey: string;
  /** Address of the interface, e.g. the `base_url` your account manager gave you, or a local mock. */
  baseUrl: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /**
   * Keeps this client under the service's limit of 600 requests a minute per IP (over it, the IP is blocked
   * for an hour). `perMinute` lowers it; pass a `throttle` from `createThrottle()` to share one budget
   * between clients that leave from the same IP (the current and the legacy client, say); `false` turns it off.
   */
  rateLimit?: { perMinute?: number; throttle?: Throttle } | false;
  /** Retries of network failures, only for operations the spec marks `x-idempotent`; `false` turns them off. */
  retry?: Partial<RetryOptions> | false;
  /** Gives up on one attempt after this many milliseconds. */
  timeoutMs?: number;
  /** `true` (default): methods resolve to the data and reject with typed errors. `false`: they resolve to `{ data, error }`. */
  throwOnError?: Throw;
  /** The company key must stay on a server; set this only if you know why a browser may hold it. */
  allowBrowser?: boolean;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Time source of the throttle and retries (tests pass a fake one). */
  clock?: Clock;
  /** Random source of the retry jitter (tests pass a fixed one). */
  random?: () => number;
};
