/** A request the sandbox refuses with one of the operation's documented codes. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code);
  }
}

/** create-user's answer to a password that is not a string: `{internalError}` instead of a code. */
export class InternalArgumentError extends Error {}

/** A company holds as many records or bytes as the sandbox keeps for it (limits.ts): nothing was stored. */
export class StoreFull extends Error {
  /** Thrown as this one instance: a company at its cap may send many requests, and a stack each costs. */
  // Stryker disable next-line StringLiteral: the message is never shown (the server answers StoreFull with a code).
  static readonly instance: StoreFull = new StoreFull('the company holds as many records as the sandbox keeps (limits.ts)');
}
