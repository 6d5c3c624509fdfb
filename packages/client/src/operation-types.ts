// Types of one operation's call, read from the generated `operations` interface of openapi-typescript.
import type { CurrentOperations, LegacyOperations, SandboxOperations } from '@idv-toolkit/types';
import type { CallOptions } from './core.js';
import type { IdvApiError, IdvNetworkError, IdvRateLimitError, IdvResponseError } from './errors.js';

/** Every operation of the three documents by operationId (`addBlacklistRecord`, `legacyGetResult`, `sandboxReset`). */
export type AnyOperations = CurrentOperations & LegacyOperations & SandboxOperations;

type ContentOf<T> = T extends { content: infer C } ? C[keyof C] : never;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type RequestBodyOf<Op> = Op extends { requestBody: infer R } ? ContentOf<NonNullable<R>> : Op extends { requestBody?: infer R } ? ContentOf<NonNullable<R>> : never;
export type SuccessOf<Op> = Op extends { responses: { 200: infer R } } ? ContentOf<R> : never;
export type ErrorBodyOf<Op> = Op extends { responses: { 400: infer R } } ? ContentOf<R> : never;
export type ErrorCodeOf<Op> =
  ErrorBodyOf<Op> extends infer Body ? (Body extends { argumentError: infer C } ? C : Body extends { error: infer C } ? C : never) : never;
type PathParamsOf<Op> = Op extends { parameters: { path: infer P } } ? P : never;

type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : {};
type KeylessParams<Op> = DistributiveOmit<[RequestBodyOf<Op>] extends [never] ? QueryOf<Op> : RequestBodyOf<Op>, 'companyKey' | 'company_key'>;

/** The argument of an operation that takes nothing but the company key: nothing, or `{}` and no property. */
export type NoParams = Record<string, never>;

/** What the caller passes: the request body (or, for a GET, the query) without the company key, which the client adds. */
export type ParamsOf<Op> = [keyof KeylessParams<Op>] extends [never] ? NoParams : KeylessParams<Op>;

/** The error an operation can end in: its documented 400 codes, the 529 block, an unreadable answer, or none. */
export type OperationError<Op> = IdvApiError<ErrorBodyOf<Op>, Extract<ErrorCodeOf<Op>, string>> | IdvRateLimitError | IdvResponseError | IdvNetworkError;

export type OperationResult<Op> =
  | { data: SuccessOf<Op>; error?: undefined; response: Response; requestId: string }
  | { data?: undefined; error: OperationError<Op>; response?: Response; requestId: string };

/** The data of a call together with its answer (status, headers) and request id. */
export type WithResponse<Op> = { data: SuccessOf<Op>; response: Response; requestId: string };

type OptionsArgs<Op> = [PathParamsOf<Op>] extends [never]
  ? [options?: Omit<CallOptions, 'path'>]
  : [options: CallOptions & { path: PathParamsOf<Op> }];

type Args<Op> = {} extends ParamsOf<Op> ? [params?: ParamsOf<Op>, ...rest: OptionsArgs<Op>] : [params: ParamsOf<Op>, ...rest: OptionsArgs<Op>];

/** One method per operation: resolves to the success body, or rejects with a typed error. */
export type ThrowingMethod<Op> = ((...args: Args<Op>) => Promise<SuccessOf<Op>>) & {
  /** The same call, resolving to `{ data, response, requestId }`: the answer's status and headers too. */
  withResponse(...args: Args<Op>): Promise<WithResponse<Op>>;
};
/** One method per operation: resolves to `{ data }` or `{ error }`, never rejects for an API error. */
export type ResultMethod<Op> = (...args: Args<Op>) => Promise<OperationResult<Op>>;

/** The list operations that `.all()` walks page by page. */
export type PagedOperationId = 'listBlacklistRecords' | 'listScreeningMonitoringRecords' | 'searchScreeningPerson';
type PagingField = 'offset' | 'limit' | 'start';
type OmitPaging<P> = P extends object ? { [K in keyof P as K extends PagingField ? never : K]: K extends 'query' ? OmitPaging<P[K]> : P[K] } : P;
/** One item of a page: `result.data[n]` or `result[n]`. */
export type PageItemOf<Op> =
  SuccessOf<Op> extends { result: infer R } ? (R extends readonly (infer I)[] ? I : R extends { data: readonly (infer I)[] } ? I : never) : never;
/** Options of `.all()`: a call's options (for every page) and the page size (default 100). */
export type PageOptions = Omit<CallOptions, 'path'> & { pageSize?: number };
type AllArgs<Op> = {} extends OmitPaging<ParamsOf<Op>>
  ? [params?: OmitPaging<ParamsOf<Op>>, options?: PageOptions]
  : [params: OmitPaging<ParamsOf<Op>>, options?: PageOptions];
export type Paged<Op> = {
  /**
   * Every item, page by page, whatever the operation's paging fields: `for await (const r of idv.listBlacklistRecords.all())`.
   * Rejects with the typed error of a failed page, with `throwOnError: false` too.
   */
  all(...args: AllArgs<Op>): AsyncGenerator<PageItemOf<Op>, void, undefined>;
};

export type Methods<Operations, Throw extends boolean> = {
  [Id in keyof Operations]: (Throw extends true ? ThrowingMethod<Operations[Id]> : ResultMethod<Operations[Id]>) &
    (Id extends PagedOperationId ? Paged<Operations[Id]> : unknown);
};
