import type { Context } from './context.js';
import { ApiError } from './errors.js';

/** The first of `preferred` that the operation documents, else its first documented code. */
export function documented(context: Pick<Context, 'route'>, ...preferred: string[]): string {
  return preferred.find((code) => context.route.codes.includes(code)) ?? context.route.codes[0] ?? 'wrong-parameters';
}

/** Refuses the request with the first documented of `preferred`. */
export function refuse(context: Pick<Context, 'route'>, ...preferred: string[]): never {
  throw new ApiError(documented(context, ...preferred));
}
