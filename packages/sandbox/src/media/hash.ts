// Deterministic "randomness" for sample media and results: everything the sandbox makes up is derived
// from the request's bytes or IDs through SHA-256, never from Math.random or the wall clock.
import { createHash } from 'node:crypto';

/**
 * Bytes above this are hashed by a sample (`sampleOf`): hashing all of a 16 MiB upload took tens of ms in
 * one turn of the event loop (limits: bounded media work), and a handler hashes an upload more than once.
 */
export const sampledAbove: number = 1024 * 1024;
const sampleBlock = 4 * 1024;
const sampleBlocks = 64;

/** The first and last 64 KiB and 64 blocks of 4 KiB spread evenly between: about 384 KiB, whatever the size. */
function sampleOf(bytes: Uint8Array): Uint8Array[] {
  const edge = 16 * sampleBlock;
  const step = Math.floor((bytes.length - 2 * edge) / sampleBlocks);
  const blocks = Array.from({ length: sampleBlocks }, (_, i) => bytes.subarray(edge + i * step, edge + i * step + sampleBlock));
  return [bytes.subarray(0, edge), ...blocks, bytes.subarray(bytes.length - edge)];
}

/**
 * SHA-256 of the parts, each length-prefixed so that ('ab', 'c') and ('a', 'bc') differ. A part over
 * `sampledAbove` bytes counts by its length and a sample: the same bytes always give the same digest.
 */
export function digestOf(...parts: (string | Uint8Array)[]): Uint8Array {
  const hash = createHash('sha256');
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length);
    for (const piece of bytes.length > sampledAbove ? sampleOf(bytes) : [bytes]) hash.update(piece);
  }
  return new Uint8Array(hash.digest());
}

/** An unsigned 32-bit number from the parts' digest (bytes 0-3, or the four from `at`). */
export function hashNumber(parts: (string | Uint8Array)[], at = 0): number {
  const d = digestOf(...parts);
  return ((d[at]! << 24) | (d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!) >>> 0;
}

/** A UUID-shaped identifier (version 4 layout) from the parts' digest: the same input, the same ID. */
export function uuidOf(...parts: (string | Uint8Array)[]): string {
  const d = digestOf(...parts).slice(0, 16);
  d[6] = (d[6]! & 0x0f) | 0x40;
  d[8] = (d[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(d).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
