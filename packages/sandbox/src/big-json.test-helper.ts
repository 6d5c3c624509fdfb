// The big-JSON reader's tests: a text fed to a reader in chunks, as a request's body comes.
import { BigJsonReader } from './big-json.js';

export const bigFields = new Set(['content', 'file']);

/** Feeds `text` to a reader in chunks of `size` bytes and ends it (`content` and `file` are the big fields). */
export async function readInChunks(text: string, size: number, bigString = 16, maxSkeletonBytes = 10_000) {
  const reader = new BigJsonReader(bigString, maxSkeletonBytes);
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) reader.write(bytes.subarray(at, at + size));
  return reader.end(bigFields);
}
