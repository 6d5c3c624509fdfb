// An answer's JSON text, when its handler already has it: the server writes that text instead of
// serialising the value again. The value stays what in-process callers (`invoke`, the console) get.
// Issue 14's bench: a page of list-blacklist-records spent a fifth of its CPU in JSON.stringify.

const texts = new WeakMap<object, string>();

/** `value`, noted as serialising to `text`, which must be exactly what `JSON.stringify(value)` gives. */
export function withJsonText<T extends object>(value: T, text: string): T {
  texts.set(value, text);
  return value;
}

/** The JSON text of an answer: the one noted for it, else JSON.stringify's. */
export function jsonText(value: unknown): string {
  const noted = typeof value === 'object' && value !== null ? texts.get(value) : undefined;
  return noted ?? JSON.stringify(value);
}
