import { jsonBody, multipartBody, type KeyField } from './body.js';
import { IdvApiError, IdvNetworkError, IdvRateLimitError } from './errors.js';
import { systemClock, type Clock, type Throttle } from './rate-limit.js';
import { defaultRetry, withRetries, type RetryOptions } from './retry.js';

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
  /** Gives up on one attempt after this many milliseconds (overrides the client's timeoutMs). */
  timeoutMs?: number;
  /** Values of the path's template parameters, e.g. `{ registry: 'companies-house' }`. */
  path?: Record<string, string>;
  /** Extra headers for this call (e.g. Prism's `Prefer` to pick a mock example). */
  headers?: Record<string, string>;
};

export type CoreSettings = {
  baseUrl: string;
  companyKey: string;
  keyField: KeyField;
  fetch: typeof globalThis.fetch;
  throttle: Throttle | undefined;
  retry: RetryOptions;
  timeoutMs: number | undefined;
  clock: Clock;
  random: () => number;
  headers: Record<string, string>;
};

export type CallResult =
  | { data: unknown; error?: undefined; response: Response }
  | { data?: undefined; error: IdvApiError | IdvRateLimitError | IdvNetworkError; response?: Response };

function urlFor(baseUrl: string, meta: OperationMeta, operationId: string, values: Record<string, string> = {}): string {
  let path = meta.path;
  for (const name of meta.pathParams) {
    const value = values[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`${operationId} needs options.path.${name}`);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  return baseUrl + path;
}

async function readSuccess(response: Response, kind: OperationMeta['response']): Promise<unknown> {
  if (kind === 'binary') return response.blob();
  const text = await response.text();
  if (kind === 'text') return text;
  return text === '' ? undefined : JSON.parse(text);
}

async function readError(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sends one operation: key injection, throttle, timeout, retries where safe, typed errors. */
export function createCore(settings: CoreSettings) {
  const { baseUrl, companyKey, keyField, fetch, throttle, retry, clock, random } = settings;
  const jsonHeaders = { 'content-type': 'application/json', ...settings.headers };

  return async function call(operationId: string, meta: OperationMeta, params: object | undefined, options: CallOptions = {}): Promise<CallResult> {
    const query = meta.request === 'query';
    const url = urlFor(baseUrl, meta, operationId, options.path) + (query ? `?${new URLSearchParams({ ...params, [keyField]: companyKey })}` : '');
    const multipart = meta.request === 'multipart';
    const baseHeaders = multipart || query ? settings.headers : jsonHeaders;
    const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
    let response: Response;
    try {
      response = await withRetries(
        async () => {
          await throttle?.acquire(options.signal);
          let signal = options.signal;
          if (timeoutMs !== undefined) signal = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
          // A multipart body is built anew for each attempt: a FormData stream can be read only once.
          return fetch(url, {
            method: meta.method,
            headers: options.headers ? { ...baseHeaders, ...options.headers } : baseHeaders,
            body: query ? undefined : multipart ? multipartBody(params, keyField, companyKey) : jsonBody(params, keyField, companyKey),
            signal,
          });
        },
        {
          idempotent: meta.idempotent,
          options: retry,
          clock,
          random,
          signal: options.signal,
          onGiveUp: (attempts, cause) => new IdvNetworkError(operationId, attempts, cause),
        },
      );
    } catch (error) {
      return { error: error instanceof IdvNetworkError ? error : new IdvNetworkError(operationId, 1, error) };
    }
    if (response.ok) return { data: await readSuccess(response, meta.response), response };
    if (response.status === 529) return { error: new IdvRateLimitError(operationId, await response.text()), response };
    return { error: new IdvApiError({ operation: operationId, status: response.status, body: await readError(response) }), response };
  };
}

export const coreDefaults: { retry: Required<RetryOptions>; clock: Clock; random: () => number } = { retry: defaultRetry, clock: systemClock, random: Math.random };
