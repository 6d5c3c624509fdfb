// openapi-fetch itself, for callers who want its whole API (middleware, `request()`, custom parseAs) on
// top of what this package adds: the company key in every body, and the throttle. The per-operation
// methods of createClient do not go through it: they call fetch directly, which measures about 1.4x
// faster than openapi-fetch on a local server (see docs/benchmarks.md).
import createOpenapiFetch, { type Client } from 'openapi-fetch';
import type { CurrentPaths, LegacyPaths } from '@idv-toolkit/types';
import { jsonBody, multipartBody, type KeyField } from './body.js';
import { checkBaseUrl } from './base-url.js';
import { assertServerSide } from './browser-guard.js';
import { throttleFor, type Throttle } from './rate-limit.js';

type KeyOptional<Body> = Body extends object ? Omit<Body, 'companyKey' | 'company_key'> & { companyKey?: never; company_key?: never } : Body;
type WithoutKey<Operation> = {
  [Field in keyof Operation]: Field extends 'requestBody'
    ? { content: { [Media in keyof NonNullable<Operation[Field]>['content' & keyof NonNullable<Operation[Field]>]]: KeyOptional<NonNullable<Operation[Field]>['content' & keyof NonNullable<Operation[Field]>][Media]> } }
    : Operation[Field];
};
/** A paths interface whose request bodies leave the company key out: the client adds it. */
export type PathsWithoutKey<Paths> = { [Path in keyof Paths]: { [Method in keyof Paths[Path]]: WithoutKey<Paths[Path][Method]> } };

export type FetchClientOptions = {
  companyKey: string;
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  rateLimit?: { perMinute?: number; throttle?: Throttle } | false;
  allowBrowser?: boolean;
};

const hasFile = (body: object) => Object.values(body).some((value) => value instanceof Blob || value instanceof Uint8Array);

function create<Paths extends {}>(options: FetchClientOptions, keyField: KeyField, alwaysMultipart: boolean): Client<PathsWithoutKey<Paths>> {
  assertServerSide(options.allowBrowser);
  const throttle = throttleFor(options.rateLimit);
  if (typeof options.companyKey !== 'string' || options.companyKey === '') throw new TypeError('companyKey is required');
  const client = createOpenapiFetch<PathsWithoutKey<Paths>>({
    baseUrl: checkBaseUrl(options.baseUrl, options.companyKey),
    fetch: options.fetch,
    bodySerializer: (body: object | undefined) =>
      alwaysMultipart || (body !== undefined && hasFile(body)) ? multipartBody(body, keyField, options.companyKey) : jsonBody(body, keyField, options.companyKey),
  });
  if (throttle) client.use({ onRequest: async ({ request }) => void (await throttle.acquire(request.signal)) });
  return client;
}

/** An openapi-fetch client of the current interface: `await api.POST('/list-groups', { body: {} })`. */
export const createFetchClient = (options: FetchClientOptions): Client<PathsWithoutKey<CurrentPaths>> => create<CurrentPaths>(options, 'companyKey', false);
/** An openapi-fetch client of the legacy interface, sending multipart form data with `company_key`. */
export const createLegacyFetchClient = (options: FetchClientOptions): Client<PathsWithoutKey<LegacyPaths>> => create<LegacyPaths>(options, 'company_key', true);
