/** Which body key carries the error code: most operations use `argumentError`; trusted-database and
 * registry checks use `error`; create-user answers a password that is not a string with `internalError`. */
export type ErrorKey = 'argumentError' | 'error' | 'internalError';

export type ErrorDetails<Body> = {
  operation: string;
  status: number;
  body: Body;
};

function codeOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['argumentError', 'error'] as const) {
      if (typeof record[key] === 'string') return record[key] as string;
    }
    if (typeof record.internalError === 'string') return 'internal-error';
  }
  return undefined;
}

/**
 * The service answered with an error status. `code` is the documented code (`argumentError` or `error`),
 * or `internal-error` for an `internalError` body; `body` is the whole error body, typed per operation.
 * Neither the message nor any property holds the request, so the company key never appears in it.
 */
export class IdvApiError<Body = unknown, Code extends string = string> extends Error {
  override readonly name: string = 'IdvApiError';
  readonly operation: string;
  readonly status: number;
  readonly code: Code | 'internal-error' | undefined;
  readonly body: Body;

  constructor({ operation, status, body }: ErrorDetails<Body>, message?: string) {
    const code = codeOf(body);
    super(message ?? `${operation} failed with HTTP ${status}${code ? `: ${code}` : ''}`);
    this.operation = operation;
    this.status = status;
    this.code = code as Code | 'internal-error' | undefined;
    this.body = body;
  }
}

/**
 * HTTP 529: more than the allowed requests a minute came from this IP, which the service then blocks for
 * an hour. The client never retries it: every retry during the block would be refused too.
 */
export class IdvRateLimitError extends IdvApiError<string, never> {
  override readonly name = 'IdvRateLimitError';

  constructor(operation: string, body: string) {
    super(
      { operation, status: 529, body },
      `${operation} was refused with HTTP 529 (Too many requests): the service blocks this IP for an hour after more than 600 requests a minute`,
    );
  }
}

/** The request never got an answer: the network failed or the call was aborted or timed out. */
export class IdvNetworkError extends Error {
  override readonly name = 'IdvNetworkError';
  readonly operation: string;
  readonly attempts: number;

  constructor(operation: string, attempts: number, cause: unknown) {
    super(`${operation} got no answer after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${describe(cause)}`, { cause });
    this.operation = operation;
    this.attempts = attempts;
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) return cause.name === 'Error' ? cause.message : `${cause.name}: ${cause.message}`;
  return String(cause);
}
