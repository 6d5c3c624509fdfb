import type { KeyField } from './body.js';
import { coreDefaults, createCore, type CallOptions, type OperationMeta } from './core.js';
import { assertServerSide } from './browser-guard.js';
import type { ClientOptions } from './options.js';
import { throttleFor } from './rate-limit.js';

/** Builds the core and one method per row of a generated operation table. */
export function buildOperationClient(
  options: ClientOptions<boolean>,
  table: Readonly<Record<string, OperationMeta>>,
  keyField: KeyField,
  methodName: (operationId: string) => string,
): Record<string, unknown> {
  assertServerSide(options.allowBrowser);
  if (typeof options.companyKey !== 'string' || options.companyKey === '') throw new TypeError('companyKey is required');
  if (typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) {
    throw new TypeError('baseUrl must be an http(s) URL, e.g. http://127.0.0.1:4010');
  }
  const clock = options.clock ?? coreDefaults.clock;
  const rateLimit = options.rateLimit;
  const call = createCore({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    companyKey: options.companyKey,
    keyField,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    throttle: throttleFor(rateLimit, clock),
    retry: options.retry === false ? { ...coreDefaults.retry, retries: 0 } : { ...coreDefaults.retry, ...options.retry },
    timeoutMs: options.timeoutMs,
    clock,
    random: options.random ?? coreDefaults.random,
    headers: options.headers ?? {},
  });
  const throwOnError = options.throwOnError !== false;

  const invoke = async (operationId: string, meta: OperationMeta, params?: object, callOptions?: CallOptions) => {
    const result = await call(operationId, meta, params, callOptions);
    if (!throwOnError) return result;
    if (result.error) throw result.error;
    return result.data;
  };

  const byPath = new Map(Object.entries(table).map(([id, meta]) => [meta.path, [id, meta] as const]));
  const methods: Record<string, unknown> = {
    /** Path-style call, as openapi-fetch's `POST`: `{ data, error, response }` whatever throwOnError says. */
    POST: (path: string, init: { body?: object; params?: { path?: Record<string, string> }; signal?: AbortSignal; timeoutMs?: number } = {}) => {
      const entry = byPath.get(path);
      if (!entry) throw new TypeError(`Unknown path ${path}`);
      return call(entry[0], entry[1], init.body, { signal: init.signal, timeoutMs: init.timeoutMs, path: init.params?.path });
    },
  };
  for (const [operationId, meta] of Object.entries(table)) {
    methods[methodName(operationId)] = (params?: object, callOptions?: CallOptions) => invoke(operationId, meta, params, callOptions);
  }
  return methods;
}
