// Digests of upload-sized bytes are taken from a sample (bounded work); smaller parts are hashed whole.
import { describe, expect, it } from 'vitest';
import { digestOf, sampledAbove } from './hash.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('digestOf', () => {
  it('hashes every byte of a part up to the bound', () => {
    const bytes = new Uint8Array(sampledAbove).fill(7);
    const before = hex(digestOf('x', bytes));
    bytes[sampledAbove / 2 + 123] = 8;
    expect(hex(digestOf('x', bytes))).not.toBe(before);
  });

  it('hashes a larger part by its length and a sample: its edges change the digest, a byte between the blocks does not', () => {
    const size = 16 * 1024 * 1024;
    const bytes = new Uint8Array(size).fill(7);
    const before = hex(digestOf('x', bytes));
    expect(hex(digestOf('x', bytes))).toBe(before);
    expect(hex(digestOf('x', bytes.subarray(0, size - 1)))).not.toBe(before);
    for (const at of [0, 1000, size - 1]) {
      const changed = bytes.slice();
      changed[at] = 8;
      expect(hex(digestOf('x', changed)), `byte ${at}`).not.toBe(before);
    }
    // Between two sampled blocks (the sample is the bound on the work, not every byte).
    const unsampled = bytes.slice();
    unsampled[size / 2 + 64 * 1024] = 8;
    expect(hex(digestOf('x', unsampled))).toBe(before);
  });
});
