// A reply's JSON text, when its handler already has it: the server writes that text instead of
// serialising the reply's value again. The value (`json`) stays what in-process callers (`invoke`, the
// console) get. Issue 14's bench: a page of list-blacklist-records spent a fifth of its CPU in JSON.stringify.
import type { Reply } from './context.js';

/**
 * A reply's JSON text as a string, or as its UTF-8 bytes (written as they are: no encoding, and no count of
 * the bytes, per answer).
 */
export type JsonText = string | Uint8Array;

/** Where a reply carries its text: a symbol, so that nothing that reads the reply's fields meets it. */
export const jsonTextOf: unique symbol = Symbol('json text');

/** A reply of `json` whose text is `text`, which must be exactly what `JSON.stringify(json)` gives (or its UTF-8 bytes). */
export function replyWithText<T>(json: T, text: JsonText): { json: T } {
  return { json, [jsonTextOf]: text } as { json: T };
}

/**
 * A reply whose value is made only when something reads it (`invoke`, the console, a test): over HTTP the
 * server writes the text alone, and the value's copies of every listed record were made for nobody (issue
 * 14's bench: list-blacklist-records). `make` must give what `JSON.parse(text)` gives; it runs once.
 */
class LazyReply<T> {
  #value: T | undefined;
  #make: (() => T) | undefined;
  readonly [jsonTextOf]: JsonText;
  constructor(make: () => T, text: JsonText) {
    this.#make = make;
    this[jsonTextOf] = text;
  }
  get json(): T {
    if (this.#make) {
      this.#value = this.#make();
      this.#make = undefined;
    }
    return this.#value as T;
  }
}

/** A reply of the value `make` gives, made when first read, whose text is `text` (as `replyWithText`). */
export function lazyReplyWithText<T>(make: () => T, text: JsonText): { json: T } {
  return new LazyReply(make, text);
}

/** The text a reply carries, if any. */
export const textOf = (reply: Reply): JsonText | undefined => (reply as { [jsonTextOf]?: JsonText })[jsonTextOf];
