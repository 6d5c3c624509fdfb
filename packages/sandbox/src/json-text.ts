// A reply's JSON text, when its handler already has it: the server writes that text instead of
// serialising the reply's value again. The value (`json`) stays what in-process callers (`invoke`, the
// console) get. Issue 14's bench: a page of list-blacklist-records spent a fifth of its CPU in JSON.stringify.
import type { Reply } from './context.js';

/** Where a reply carries its text: a symbol, so that nothing that reads the reply's fields meets it. */
export const jsonTextOf: unique symbol = Symbol('json text');

/** A reply of `json` whose text is `text`, which must be exactly what `JSON.stringify(json)` gives. */
export function replyWithText<T>(json: T, text: string): { json: T } {
  return { json, [jsonTextOf]: text } as { json: T };
}

/** The text a reply carries, if any. */
export const textOf = (reply: Reply): string | undefined => (reply as { [jsonTextOf]?: string })[jsonTextOf];
