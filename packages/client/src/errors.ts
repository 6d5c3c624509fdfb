import type { AnyOperations, ErrorBodyOf, ErrorCodeOf } from './operation-types.js';

/** Which body key carries the error code: most operations use `argumentError`; trusted-database and
 * registry checks use `error`; create-user answers a password that is not a string with `internalError`. */
export type ErrorKey = 'argumentError' | 'error' | 'internalError';

/** What every error of a call knows about it. */
export type ErrorContext = {
  /** The operationId, e.g. `addBlacklistRecord` or `legacyGetResult`. */
  operation: string;
  /** The `X-Request-Id` the call was sent with (the same for every attempt): quote it to support. */
  requestId: string;
  /** How many times the request was sent. */
  attempts: number;
  /** The last answer, when there was one (its body already read): status and headers. */
  response?: Response | undefined;
};

/**
 * The base of every error a call ends in. Neither the message nor any property holds the request, so
 * the company key never appears in it.
 */
export class IdvError extends Error {
  override readonly name: string = 'IdvError';
  declare readonly operation: string;
  declare readonly requestId: string;
  declare readonly attempts: number;
  /** The HTTP status of the last answer; undefined when there was none. */
  declare readonly status: number | undefined;
  declare readonly response: Response | undefined;
  /** The service's error code; only an {@link IdvApiError} has one. */
  declare readonly code: string | undefined;

  constructor(message: string, context: ErrorContext, cause?: unknown) {
    super(`${message} (request id ${context.requestId})`, cause === undefined ? undefined : { cause });
    Object.assign(this, context, { status: context.response?.status });
  }
}

// Every documented code is one kebab-case word; a sentence under the same key (the sandbox's answer for an
// operation it does not emulate, a gateway's message) is no code, and stays readable in `body`.
const codeShape = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function codeOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['argumentError', 'error'] as const) {
      const value = record[key];
      if (typeof value === 'string' && codeShape.test(value)) return value;
    }
    if (typeof record.internalError === 'string') return 'internal-error';
  }
  return undefined;
}

/**
 * The service answered with an error status. `code` is the documented code (`argumentError` or `error`),
 * or `internal-error` for an `internalError` body; `body` is the whole error body, typed per operation
 * (the text as it came when it was not JSON, e.g. a proxy's 502 page).
 */
export class IdvApiError<Body = unknown, Code extends string = string> extends IdvError {
  override readonly name: string = 'IdvApiError';
  declare readonly status: number;
  declare readonly response: Response;
  override readonly code: Code | 'internal-error' | undefined;
  readonly body: Body;

  constructor(context: ErrorContext & { response: Response }, body: Body, message: string) {
    super(message, context);
    this.code = codeOf(body) as Code | 'internal-error' | undefined;
    this.body = body;
  }
}

/** Codes that mean the company key is wrong, whatever the operation (Part 5 of the reference). */
const keyCodes = ['invalid-company-key', 'company-missing'];
/** Codes a wrong key shows up as on some operations, beside their own meaning (a session or record the
 * key's company cannot see looks the same as one that does not exist). */
const maybeKeyCodes = ['invalid-access', 'session-not-found', 'not-found', 'access-denied'];
/**
 * Operations whose request holds nothing but the key (and paging): a "maybe" code can only mean the key.
 * (`sandboxListRateLimit` left when it learnt to take the admin token instead of the key.)
 */
export const keyOnlyOperations = ['listUsers', 'listGroups', 'listBlacklistRecords', 'listScreeningMonitoringRecords', 'getScreeningDeltaRecords', 'sandboxListCallbacks', 'sandboxGetCallbackDelivery'] as const;

/** Whether an error code of an operation means that the company key is wrong (see the README). */
export function isKeyCode(operation: string, code: string | undefined): boolean {
  return code !== undefined && (keyCodes.includes(code) || (maybeKeyCodes.includes(code) && (keyOnlyOperations as readonly string[]).includes(operation)));
}


/**
 * The service did not accept the company key: `invalid-company-key` or `company-missing` on any
 * operation, or `invalid-access`, `not-found`, `session-not-found`, `access-denied` on an operation that
 * sends nothing but the key (`listUsers`, `listGroups`, ...). Check the key and the base URL it belongs to.
 */
export class IdvAuthenticationError<Body = unknown, Code extends string = string> extends IdvApiError<Body, Code> {
  override readonly name: string = 'IdvAuthenticationError';
}

/** The error of an answer with an error status: an authentication error when its code means the key. */
export function apiError(context: ErrorContext & { response: Response }, body: unknown): IdvApiError {
  const code = codeOf(body);
  const key = isKeyCode(context.operation, code);
  const hint = key ? ' (the company key is wrong)' : maybeKeyCodes.includes(code as string) ? ' (or the company key is wrong)' : '';
  return new (key ? IdvAuthenticationError : IdvApiError)(context, body, `${context.operation} failed with HTTP ${context.response.status}${code ? `: ${code}` : ''}${hint}`);
}

/**
 * HTTP 529: the service's rate limit (600 requests a minute per IP) was exceeded, and it now refuses
 * every request from this IP until its block ends. The client never retries it: every retry during the
 * block would be refused too. `retryAfterMs` is the answer's `Retry-After`, when it gave one.
 */
export class IdvRateLimitError extends IdvApiError<string, never> {
  override readonly name: string = 'IdvRateLimitError';
  declare readonly code: undefined;
  readonly retryAfterMs: number | undefined;

  constructor(context: ErrorContext & { response: Response }, body: string, retryAfterMs: number | undefined) {
    super(
      context,
      body,
      `${context.operation} was refused with HTTP 529: this IP went over the rate limit and is refused until the block ends`,
    );
    this.retryAfterMs = retryAfterMs;
  }
}

/** A successful status whose body is not what the operation documents (e.g. an HTML page instead of JSON). */
export class IdvResponseError extends IdvError {
  override readonly name: string = 'IdvResponseError';
  declare readonly status: number;
  declare readonly response: Response;
  declare readonly code: undefined;
  /** The start of the body as it came (at most 200 characters). */
  readonly bodyStart: string;

  constructor(context: ErrorContext & { response: Response }, bodyStart: string, cause: unknown) {
    super(`${context.operation} answered HTTP ${context.response.status} with a body that is not JSON`, context, cause);
    this.bodyStart = bodyStart;
  }
}

/** Why a request got no answer. */
export type NoAnswerReason = 'network' | 'timeout' | 'aborted';

/** The request never got an answer: the network failed, an attempt timed out, or the caller aborted. */
export class IdvNetworkError extends IdvError {
  override readonly name: string = 'IdvNetworkError';
  declare readonly status: undefined;
  declare readonly response: undefined;
  declare readonly code: undefined;
  readonly reason: NoAnswerReason;

  constructor(context: ErrorContext, reason: NoAnswerReason, cause: unknown) {
    super(`${context.operation} got no answer (attempts: ${context.attempts}): ${cause}`, context, cause);
    this.reason = reason;
  }
}


/** The API error of one operation, its `code` narrowed to the codes that operation documents. */
export type ApiErrorOf<Id extends keyof AnyOperations> = IdvApiError<ErrorBodyOf<AnyOperations[Id]>, Extract<ErrorCodeOf<AnyOperations[Id]>, string>>;

/**
 * Whether `error` is the service's error answer (to `operation`, when given: its operationId, e.g.
 * `addBlacklistRecord` or `legacyGetResult`). Narrows `code` to the codes that operation documents.
 */
export function isApiError<Id extends keyof AnyOperations>(error: unknown, operation: Id): error is ApiErrorOf<Id>;
export function isApiError(error: unknown): error is IdvApiError;
export function isApiError(error: unknown, operation?: string): boolean {
  return error instanceof IdvApiError && (operation === undefined || error.operation === operation);
}
