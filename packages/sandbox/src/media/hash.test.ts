// Digests of upload-sized bytes are taken from a sample (bounded work); smaller parts are hashed whole.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestOf, hashNumber, sampledAbove, uuidOf } from './hash.js';

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

/** SHA-256 of each part's 4-byte big-endian length and its UTF-8 bytes, as the module documents it. */
function documented(...parts: (string | Uint8Array)[]): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length).update(bytes);
  }
  return hash.digest();
}

describe('digestOf, hashNumber and uuidOf: the made-up values of a request', () => {
  it('hash text as its UTF-8 bytes, each part length-prefixed', () => {
    expect(hex(digestOf('é', 'ab'))).toBe(documented('é', 'ab').toString('hex'));
    expect(hex(digestOf('é'))).toBe(hex(digestOf(new TextEncoder().encode('é'))));
    expect(hex(digestOf('ab', 'c'))).not.toBe(hex(digestOf('a', 'bc')));
  });

  it('hashNumber is four bytes of the digest, big-endian, from the start or from `at`', () => {
    const d = documented('spoof', 'é');
    expect(hashNumber(['spoof', 'é'])).toBe(d.readUInt32BE(0));
    expect(hashNumber(['spoof', 'é'], 4)).toBe(d.readUInt32BE(4));
    expect(hashNumber(['a'])).toBe(1929341698); // the same in every version: a recorded run keeps its values
  });

  it('uuidOf is a version 4 UUID made of the digest, the same for the same parts', () => {
    const d = documented('extract', 'front', 'abc').subarray(0, 16);
    d[6] = (d[6]! & 0x0f) | 0x40;
    d[8] = (d[8]! & 0x3f) | 0x80;
    const h = d.toString('hex');
    expect(uuidOf('extract', 'front', 'abc')).toBe(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
    expect(uuidOf('extract', 'front', 'abc')).toBe('a8b3344f-1f52-46ad-aa42-1e8778e884d3');
    expect(uuidOf('extract', 'back', 'abc')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('digestOf an upload-sized part', () => {
  const size = 2 * 1024 * 1024 + 100;
  const patterned = () => {
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 9)) & 0xff;
    return bytes;
  };
  const edge = 64 * 1024;
  const step = Math.floor((size - 2 * edge) / 64);

  it('is the same in every version (a recorded run keeps the people and results its uploads chose)', () => {
    expect(hex(digestOf('x', patterned()))).toBe('9a1a1035f24f456ce5828c050f3d0da4b6d991f41476824ea9eda3eed9eb1fe8');
  });

  it('counts the first and last 64 KiB whole, and 64 blocks of 4 KiB evenly spread', () => {
    const bytes = patterned();
    const before = hex(digestOf('x', bytes));
    const changes = (at: number) => {
      const changed = bytes.slice();
      changed[at] = changed[at]! ^ 0xff;
      return hex(digestOf('x', changed)) !== before;
    };
    expect([edge - 1, size - edge, edge + 5 * step, edge + 5 * step + 4095, edge + 63 * step + 4095].map(changes)).toEqual([true, true, true, true, true]);
    expect([edge + 5 * step + 4096, edge + 5 * step - 1, size - edge - 1].map(changes)).toEqual([false, false, false]);
  });

  it('counts every byte of a part of exactly the bound', () => {
    const bytes = new Uint8Array(sampledAbove).fill(7);
    const before = hex(digestOf(bytes));
    bytes[edge + 5000] = 8; // between two blocks of a sample, were the part sampled
    expect(hex(digestOf(bytes))).not.toBe(before);
  });
});
