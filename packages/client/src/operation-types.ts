// Types of one operation's call, read from the generated `operations` interface of openapi-typescript.
import type { CallOptions } from './core.js';
import type { IdvApiError, IdvNetworkError, IdvRateLimitError } from './errors.js';

type ContentOf<T> = T extends { content: infer C } ? C[keyof C] : never;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type RequestBodyOf<Op> = Op extends { requestBody: infer R } ? ContentOf<NonNullable<R>> : Op extends { requestBody?: infer R } ? ContentOf<NonNullable<R>> : never;
export type SuccessOf<Op> = Op extends { responses: { 200: infer R } } ? ContentOf<R> : never;
export type ErrorBodyOf<Op> = Op extends { responses: { 400: infer R } } ? ContentOf<R> : never;
export type ErrorCodeOf<Op> =
  ErrorBodyOf<Op> extends infer Body ? (Body extends { argumentError: infer C } ? C : Body extends { error: infer C } ? C : never) : never;
type PathParamsOf<Op> = Op extends { parameters: { path: infer P } } ? P : never;

type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : {};

/** What the caller passes: the request body (or, for a GET, the query) without the company key, which the client adds. */
export type ParamsOf<Op> = DistributiveOmit<[RequestBodyOf<Op>] extends [never] ? QueryOf<Op> : RequestBodyOf<Op>, 'companyKey' | 'company_key'>;

/** The error an operation can end in: its documented 400 codes, the 529 block, or no answer at all. */
export type OperationError<Op> = IdvApiError<ErrorBodyOf<Op>, Extract<ErrorCodeOf<Op>, string>> | IdvRateLimitError | IdvNetworkError;

export type OperationResult<Op> =
  | { data: SuccessOf<Op>; error?: undefined; response: Response }
  | { data?: undefined; error: OperationError<Op>; response?: Response };

type OptionsArgs<Op> = [PathParamsOf<Op>] extends [never]
  ? [options?: Omit<CallOptions, 'path'>]
  : [options: CallOptions & { path: PathParamsOf<Op> }];

type Args<Op> = {} extends ParamsOf<Op> ? [params?: ParamsOf<Op>, ...rest: OptionsArgs<Op>] : [params: ParamsOf<Op>, ...rest: OptionsArgs<Op>];

/** One method per operation: resolves to the success body, or rejects with a typed error. */
export type ThrowingMethod<Op> = (...args: Args<Op>) => Promise<SuccessOf<Op>>;
/** One method per operation: resolves to `{ data }` or `{ error }`, never rejects for an API error. */
export type ResultMethod<Op> = (...args: Args<Op>) => Promise<OperationResult<Op>>;

export type Methods<Operations, Throw extends boolean> = {
  [Id in keyof Operations]: Throw extends true ? ThrowingMethod<Operations[Id]> : ResultMethod<Operations[Id]>;
};
