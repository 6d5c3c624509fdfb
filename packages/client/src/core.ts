import { jsonBody, multipartBody, type KeyField } from './body.js';
import { apiError, IdvNetworkError, IdvRateLimitError, IdvResponseError, type ErrorContext, type IdvError, type NoAnswerReason } from './errors.js';
import type { RequestHook, ResponseHook } from './hooks.js';
import type { Log } from './log.js';
import type { Clock, Throttle } from './rate-limit.js';
import { backoffDelay, retryableStatus, retryAfterMs, type RetryOptions } from './retry.js';

/** One row of the operation table generated from the spec (packages/types/src/generated/*-operations.ts). */
export type OperationMeta = {
  readonly path: string;
  readonly method: 'POST' | 'GET';
  readonly idempotent: boolean;
  readonly request: 'json' | 'multipart' | 'query' | 'none' | 'text' | 'binary';
  readonly response: 'json' | 'multipart' | 'none' | 'text' | 'binary';
  readonly pathParams: readonly string[];
};

export type CallOptions = {
  /** Aborts the call, including any wait for the throttle or a retry. */
  signal?: AbortSignal;
  /** Gives up on one attempt after this many milliseconds (overrides the client's timeoutMs; 0: never). */
  timeoutMs?: number;
  /** Further attempts of this call, if its operation is safe to repeat (overrides the client's maxRetries). */
  maxRetries?: number;
  /** The `X-Request-Id` to send (default: a new `crypto.randomUUID()`). */
  requestId?: string;
  /** Values of the path's template parameters, e.g. `{ registry: 'companies-house' }`. */
  path?: Record<string, string>;
  /** Extra headers for this call (e.g. Prism's `Prefer` to pick a mock example). */
  headers?: Record<string, string>;
};

/** How a call ends in throwing mode: with the data, or the whole `{ data, response, requestId }`; errors are thrown. */
export type ThrowMode = 'data' | 'whole';

/** Sends one operation: the whole result (never rejects), or in throwing mode the data or `{ data, response, requestId }`. */
export type Call = {
  (operation: string, meta: OperationMeta, params: object | undefined, options?: CallOptions): Promise<CallResult>;
  (operation: string, meta: OperationMeta, params: object | undefined, options: CallOptions | undefined, mode: ThrowMode): Promise<unknown>;
};

export type CoreSettings = {
  baseUrl: string;
  companyKey: string;
  keyField: KeyField;
  fetch: typeof globalThis.fetch;
  throttle: Throttle | undefined;
  maxRetries: number;
  retry: RetryOptions;
  timeoutMs: number;
  clock: Clock;
  random: () => number;
  /** Sent with every request: User-Agent and the caller's own. */
  headers: Record<string, string>;
  log: Log | undefined;
  onRequest: RequestHook | undefined;
  onResponse: ResponseHook | undefined;
};

export type CallResult =
  | { data: unknown; error?: undefined; response: Response; requestId: string }
  | { data?: undefined; error: IdvError; response?: Response; requestId: string };

/** The header that carries the company key of an operation sent as a GET, which has no body: never the URL. */
export const keyHeader = 'x-company-key';

function urlFor(baseUrl: string, meta: OperationMeta, operationId: string, values?: Record<string, string>): string {
  let path = meta.path;
  for (const name of meta.pathParams) {
    const value = values?.[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`${operationId} needs options.path.${name}`);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  return baseUrl + path;
}

/** Sends one operation: key injection, throttle, timeout, retries where safe, typed errors, logs and hooks. */
export function createCore(settings: CoreSettings): Call {
  const { baseUrl, companyKey, keyField, fetch, throttle, retry, clock, random, log, onRequest, onResponse } = settings;
  // Each attempt copies one of these and sets its request id. They hold every property an attempt sets:
  // on Node 20 a spread copy that gains a property costs about 2.5 µs, a copy that does not 0.1 µs.
  const formHeaders = { ...settings.headers, 'x-request-id': '' };
  const jsonHeaders = { 'content-type': 'application/json', ...formHeaders };
  // An answer that echoes the key (a proxy's error page, say) must not carry it into an error.
  const redact = (text: string) => text.replaceAll(companyKey, '[redacted]');

  // Throwing mode is decided here, in the one async function of a call, rather than by a wrapper that awaits
  // it: one async function, one promise and one turn of the microtask queue fewer a call.
  return async function call(operation: string, meta: OperationMeta, params: object | undefined, options: CallOptions = {}, mode?: ThrowMode): Promise<unknown> {
    const requestId = options.requestId ?? crypto.randomUUID();
    const { method, request, response: expected } = meta;
    const query = request === 'query';
    let url = urlFor(baseUrl, meta, operation, options.path);
    if (query && params) {
      // The key goes in a header, even one the caller put among the parameters: a URL ends up in logs.
      const search = new URLSearchParams(params as Record<string, string>);
      search.delete(keyField);
      if (search.size) url += `?${search}`;
    }
    const maxRetries = meta.idempotent ? (options.maxRetries ?? settings.maxRetries) : 0;
    const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
    const signal = options.signal;
    /** Attempts sent so far. */
    let attempts = 0;
    const context = (response?: Response): ErrorContext & { response: Response } =>
      ({ operation, requestId, attempts, response }) as ErrorContext & { response: Response };
    const fail = (error: IdvError, response?: Response): CallResult => {
      log?.('warn', requestId, error.message);
      if (mode) throw error;
      return { error, response, requestId };
    };

    for (;;) {
      if (throttle) {
        try {
          await throttle.acquire(signal);
        } catch (cause) {
          return fail(new IdvNetworkError(context(), 'aborted', cause));
        }
      }
      const attempt = ++attempts;
      const headers: Record<string, string> = { ...(query || request === 'multipart' ? formHeaders : jsonHeaders) };
      headers['x-request-id'] = requestId;
      if (options.headers) Object.assign(headers, options.headers);
      onRequest?.({ operation, requestId, attempt, method, url, headers });
      log?.('debug', requestId, `${operation}: ${method} ${url} (attempt ${attempt})`);

      // The timeout aborts the attempt through a signal of the attempt's own, so that the connection of a
      // server that never answers is closed then, not held until Node's own 300 s timeouts. A signal costs
      // fetch (undici) 4 to 9 % of a local call's CPU, which not following redirects more than pays for.
      // The caller's signal aborts ours through a listener removed after the attempt: AbortSignal.any would
      // leave a long-lived caller's signal holding about 55 bytes for every call (Node 20).
      const own = new AbortController();
      const forward = () => own.abort(signal!.reason);
      if (signal?.aborted) forward();
      else signal?.addEventListener('abort', forward);
      let timer: ReturnType<typeof setTimeout> | undefined;
      let timedOut = false;
      let response: Response | undefined;
      let text = '';
      let blob: Blob | undefined;
      let failure: { cause: unknown } | undefined;
      const started = performance.now();
      try {
        await new Promise<void>((resolve, reject) => {
          if (timeoutMs > 0)
            timer = setTimeout(() => {
              timedOut = true;
              const why = new DOMException(`the attempt timed out after ${timeoutMs} ms`, 'TimeoutError');
              own.abort(why);
              reject(why);
            }, timeoutMs);
          fetch(url, {
            method,
            headers: query ? { ...headers, [keyHeader]: companyKey } : headers,
            // A multipart body is built anew for each attempt: a FormData stream can be read only once.
            body: query ? undefined : request === 'multipart' ? multipartBody(params, keyField, companyKey) : jsonBody(params, keyField, companyKey),
            signal: own.signal,
            // A redirect is not followed: fetch would send the key again, in the body or x-company-key,
            // to the Location, wherever it points. And undici copies every request that may follow one,
            // its body stream teed: not following costs a local call a fifth to a quarter less CPU.
            redirect: 'error',
          }).then((answer) => {
            // An answer that comes after its attempt was given up on: free its connection.
            if (timedOut) return void answer.body?.cancel();
            response = answer;
            // The body is read within the attempt's timeout too: a server may stall halfway. Settled from
            // the body's own promise, not through an async callback and a further .then: two promises and
            // two turns of the microtask queue fewer a call, about 3 % of a local call's CPU (docs/benchmarks.md).
            try {
              if (answer.ok && expected === 'binary')
                answer.blob().then((read) => {
                  blob = read;
                  resolve();
                }, reject);
              else
                answer.text().then((read) => {
                  text = read;
                  resolve();
                }, reject);
            } catch (cause) {
              reject(cause);
            }
          }, reject);
        });
      } catch (cause) {
        failure = { cause };
      }
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
      const durationMs = Math.round(performance.now() - started);
      onResponse?.({ operation, requestId, attempt, durationMs, response, error: failure?.cause });

      let wait: number;
      let why: string;
      if (failure || !response) {
        const reason: NoAnswerReason = signal?.aborted ? 'aborted' : timedOut ? 'timeout' : 'network';
        if (reason === 'aborted' || attempt > maxRetries) return fail(new IdvNetworkError(context(), reason, failure?.cause));
        wait = backoffDelay(attempt - 1, retry, random);
        why = `no answer (${reason})`;
      } else {
        const status = response.status;
        if (response.ok) {
          let data: unknown = blob ?? text;
          if (expected !== 'binary' && expected !== 'text') {
            try {
              data = text === '' ? undefined : JSON.parse(text);
            } catch (cause) {
              return fail(new IdvResponseError(context(response), redact(text.slice(0, 200)), cause), response);
            }
          }
          log?.('info', requestId, `${operation}: HTTP ${status} in ${durationMs} ms, attempt ${attempt}`);
          return mode === 'data' ? data : { data, response, requestId };
        }
        text = redact(text);
        const after = retryAfterMs(response.headers.get('retry-after'), clock.now());
        if (status === 529) return fail(new IdvRateLimitError(context(response), text, after), response);
        if (attempt > maxRetries || !retryableStatus(status) || after! > retry.maxRetryAfterMs) {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON (a proxy's error page, say): the text is the body.
          }
          return fail(apiError(context(response), body), response);
        }
        wait = after ?? backoffDelay(attempt - 1, retry, random);
        why = `HTTP ${status}`;
      }
      log?.('warn', requestId, `${operation}: ${why}, retry ${attempt} of ${maxRetries} in ${wait} ms`);
      try {
        // A caller's abort during the wait ends the call.
        await clock.sleep(wait, signal);
      } catch (cause) {
        return fail(new IdvNetworkError(context(), 'aborted', cause));
      }
    }
  } as Call;
}
