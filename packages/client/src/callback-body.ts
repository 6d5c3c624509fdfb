// Reading a callback body with a limit in bytes: the reading stops at the first chunk past the limit, so
// an oversized or endless body costs at most `max` bytes of memory.

/** The length of `text` in UTF-8 bytes, without encoding it (a lone surrogate counts as U+FFFD: 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const encoder = new TextEncoder();

async function* chunksOf(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  if (!(Symbol.asyncIterator in source) && 'getReader' in source) {
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      // Stops the sender's body once we have read enough (or failed); nothing else is read from it.
      await reader.cancel().catch(() => {});
    }
  } else yield* source as AsyncIterable<Uint8Array | string>;
}

/** Every byte of `source`, or the error `tooLarge(max)` as soon as it holds more than `max` bytes. */
export async function readLimited(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>,
  max: number,
  tooLarge: (max: number) => Error,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunksOf(source)) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    total += bytes.byteLength;
    if (total > max) throw tooLarge(max);
    parts.push(bytes);
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.byteLength;
  }
  return all;
}
