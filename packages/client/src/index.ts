export { createClient, type IdvClient } from './client.js';
export { createLegacyClient, legacyMethodName, type IdvLegacyClient } from './legacy.js';
export { createSandboxClient, type IdvSandboxClient } from './sandbox.js';
export type { ClientOptions } from './options.js';
export type { CallOptions } from './core.js';
export {
  IdvError,
  IdvApiError,
  IdvAuthenticationError,
  IdvNetworkError,
  IdvRateLimitError,
  IdvResponseError,
  isApiError,
  type ApiErrorOf,
  type ErrorContext,
  type ErrorKey,
  type NoAnswerReason,
} from './errors.js';
export type { Logger, LogLevel } from './log.js';
export type { RequestHook, RequestInfo, ResponseHook, ResponseInfo } from './hooks.js';
export { createThrottle, memoryStore, sharedThrottle, type Clock, type Throttle, type ThrottleOptions, type ThrottleStore } from './rate-limit.js';
export type { RetryOptions } from './retry.js';
export type { AnyOperations, NoParams, OperationError, OperationResult, PageItemOf, PageOptions as AllPageOptions, ParamsOf, SuccessOf, ErrorCodeOf, WithResponse } from './operation-types.js';
export { decodeDataUri, toUploadDataUri, readTarEntries, uploadMediaTypes, type DecodedDataUri, type TarEntry, type UploadMediaType } from './media.js';
export { allBlacklistRecords, allMonitoringRecords, allScreeningHits, type PageOptions } from './paginate.js';
export { createFetchClient, createLegacyFetchClient, type FetchClientOptions, type PathsWithoutKey } from './fetch-client.js';
export { CallbackError, defaultCallbackMaxBytes, parseCallback, parseCallbackNodeRequest, parseCallbackRequest, sameSecret, type CallbackErrorReason, type CallbackEvent, type CallbackOptions, type CallbackType } from './callbacks.js';
