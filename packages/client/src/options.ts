import type { RequestHook, ResponseHook } from './hooks.js';
import type { LogLevel, Logger } from './log.js';
import type { Clock, Throttle } from './rate-limit.js';
import type { RetryOptions } from './retry.js';

export type ClientOptions<Throw extends boolean = true> = {
  /** The company's secret key; put into every request body. Never logged, never in an error or a URL. */
  companyKey: string;
  /** Address of the interface, e.g. the `base_url` your account manager gave you, or a local mock. Checked
   * when the client is made: an http(s) URL without credentials, query or fragment. */
  baseUrl: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /**
   * Keeps this client under the service's limit of 600 requests a minute per IP (over it, the IP is blocked).
   * `perMinute` lowers it; pass a `throttle` from `createThrottle()` to share one budget between clients
   * that leave from the same IP (the current and the legacy client, say); `false` turns it off.
   */
  rateLimit?: { perMinute?: number; throttle?: Throttle } | false;
  /**
   * Further attempts after the first (default 2), only for operations the spec marks `x-idempotent` and
   * only after no answer or a 500, 502, 503 or 504; never after a 400 or a 529. A call's own `maxRetries`
   * overrides it.
   */
  maxRetries?: number;
  /** Delays between retries; `false` turns retries off (as `maxRetries: 0`). */
  retry?: Partial<RetryOptions> | false;
  /**
   * Gives up on one attempt (sending, waiting, reading the answer) after this many milliseconds; a call's
   * own `timeoutMs` overrides it. Default 60 000 (one minute): the slowest documented operations (document
   * extraction, PDF export, video archives as data URIs) answer well within it, and a connection that
   * hangs is given up on within a minute instead of never. `0` means no timeout.
   */
  timeoutMs?: number;
  /** `true` (default): methods resolve to the data and reject with typed errors. `false`: they resolve to `{ data, error }`. */
  throwOnError?: Throw;
  /** The company key must stay on a server; set this only if you know why a browser may hold it. */
  allowBrowser?: boolean;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Where log lines go (default: `console`). Lines never hold the key or a body. */
  logger?: Logger;
  /** Which lines to log: `debug` (every attempt), `info` (every call), `warn` (retries and failures) or
   * `off`. Default: the `IDV_LOG` environment variable, else `off`. */
  logLevel?: LogLevel;
  /** Called before each attempt is sent; may add headers to `info.headers`. */
  onRequest?: RequestHook;
  /** Called after each attempt, with its answer or the failure that left it without one. */
  onResponse?: ResponseHook;
  /** Time source of the throttle and retries (tests pass a fake one). */
  clock?: Clock;
  /** Random source of the retry jitter (tests pass a fixed one). */
  random?: () => number;
};
