import type { KeyField } from './body.js';
import { createCore, type CallOptions, type CallResult, type OperationMeta } from './core.js';
import { checkBaseUrl } from './base-url.js';
import { assertServerSide } from './browser-guard.js';
import { createLog } from './log.js';
import type { ClientOptions } from './options.js';
import { pagedOperations, walkPages } from './paginate.js';
import { systemClock, throttleFor } from './rate-limit.js';
import { defaultMaxRetries, defaultRetry } from './retry.js';
import { version } from './version.js';

/** One minute per attempt: see `timeoutMs` in options.ts for why. */
export const defaultTimeoutMs = 60_000;

const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
const userAgent = `idv-toolkit-client/${version}${node ? ` node/${node}` : ''}`;

/** Builds the core and one method per row of a generated operation table. */
export function buildOperationClient(
  options: ClientOptions<boolean>,
  table: Readonly<Record<string, OperationMeta>>,
  keyField: KeyField,
  methodName: (operationId: string) => string,
): Record<string, unknown> {
  assertServerSide(options.allowBrowser);
  if (typeof options.companyKey !== 'string' || options.companyKey === '') throw new TypeError('companyKey is required');
  const baseUrl = checkBaseUrl(options.baseUrl, options.companyKey);
  const clock = options.clock ?? systemClock;
  const call = createCore({
    baseUrl,
    companyKey: options.companyKey,
    keyField,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    throttle: throttleFor(options.rateLimit, clock),
    maxRetries: options.retry === false ? 0 : (options.maxRetries ?? defaultMaxRetries),
    retry: { ...defaultRetry, ...options.retry },
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    clock,
    random: options.random ?? Math.random,
    headers: { 'user-agent': userAgent, ...options.headers },
    log: createLog(options.logger, options.logLevel),
    onRequest: options.onRequest,
    onResponse: options.onResponse,
  });
  const throwOnError = options.throwOnError !== false;

  const byPath = new Map<string, (params?: object, callOptions?: CallOptions) => Promise<CallResult>>();
  const methods: Record<string, unknown> = {
    /** Path-style call, as openapi-fetch's `POST`: `{ data, error, response }` whatever throwOnError says. */
    POST: (path: string, init: { body?: object; params?: { path?: Record<string, string> }; signal?: AbortSignal; timeoutMs?: number } = {}) => {
      const send = byPath.get(path);
      if (!send) throw new TypeError(`Unknown path ${path}`);
      return send(init.body, { signal: init.signal, timeoutMs: init.timeoutMs, path: init.params?.path });
    },
  };
  for (const [operationId, meta] of Object.entries(table)) {
    const send = (params?: object, callOptions?: CallOptions) => call(operationId, meta, params, callOptions);
    byPath.set(meta.path, send);
    // Throwing mode: the data, or with `.withResponse()` the whole `{ data, response, requestId }`; the core
    // throws, so that no further async function stands between the caller and fetch.
    const method = throwOnError
      ? Object.assign((params?: object, callOptions?: CallOptions) => call(operationId, meta, params, callOptions, 'data'), {
          withResponse: (params?: object, callOptions?: CallOptions) => call(operationId, meta, params, callOptions, 'whole'),
        })
      : send;
    const page = pagedOperations[operationId];
    methods[methodName(operationId)] = page
      ? Object.assign(method, { all: (params?: Record<string, unknown>, pageOptions?: object) => walkPages(send, page, params, pageOptions) })
      : method;
  }
  return methods;
}
