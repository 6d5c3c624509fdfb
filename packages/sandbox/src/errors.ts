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
