// An upload's JSON body read in pieces (big-json.ts) at the sizes where its pieces show: a file field over
// 512 KiB (decoded a piece at a time) with escapes and characters of several bytes cut by the pieces'
// edges gives what JSON.parse gives, and other requests get turns of the event loop while it is decoded;
// a string of exactly the text limit is no long string; the fields around the files may take exactly
// their limit; a long string under a nested key that has a file field's name is refused.
import { describe, expect, it } from 'vitest';
import { BigJsonError, BigJsonReader } from './big-json.js';
import { bigFields, readInChunks } from './big-json.test-helper.js';

const piece = 512 * 1024;
const read = readInChunks;

/** JSON text of a string whose escape or character `inner` starts `shift` bytes before each piece's edge. */
function cutAt(inner: string, shift: number): string {
  const filler = (n: number) => 'a'.repeat(n);
  // The string's content starts right after {"content":" (12 bytes), but pieces count from its content.
  return `{"content":"${filler(piece - shift)}${inner}${filler(piece - inner.length)}${inner}tail"}`;
}

describe('a file field over 512 KiB', () => {
  it('gives what JSON.parse gives with escapes and characters cut at the pieces\' edges', async () => {
    for (const inner of ['\\u0041', '\\u00e9', '\\ud83d\\ude00', '\\n', '\\\\', '\\"', '\\/', 'é', '€', '😀', '\\\\\\u0041']) {
      for (let shift = 1; shift <= Math.min(inner.length + 1, 13); shift++) {
        const text = cutAt(inner, shift);
        expect(await read(text, 1 << 20), `${inner} cut ${shift} bytes before the edge`).toEqual(JSON.parse(text));
      }
    }
  });

  it('refuses a malformed escape at a piece\'s edge as JSON.parse would', async () => {
    for (const inner of ['\\x', '\\u12x4']) {
      for (let shift = 1; shift <= inner.length; shift++) await expect(read(cutAt(inner, shift), 1 << 20)).rejects.toThrow();
    }
  });

  it('is decoded with turns of the event loop for other requests between its pieces', async () => {
    const text = JSON.stringify({ content: 'b'.repeat(4 * piece), note: 'x' });
    const reader = new BigJsonReader(16, 10_000);
    reader.write(Buffer.from(text));
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const value = (await reader.end(bigFields)) as { content: string };
    counting = false;
    expect(value.content).toHaveLength(4 * piece);
    // A turn after each 512 KiB: other requests wait for one piece's decoding at most.
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});

describe('the limits', () => {
  it('take a string of exactly the text limit as any string, in any field', async () => {
    const atLimit = 'z'.repeat(16);
    expect(await read(JSON.stringify({ name: atLimit, content: atLimit }), 5)).toEqual({ name: atLimit, content: atLimit });
    await expect(read(JSON.stringify({ name: `${atLimit}z` }), 5)).rejects.toThrow(BigJsonError);
  });

  it('let the fields around the files take exactly their limit', async () => {
    const text = JSON.stringify({ a: 'b'.repeat(10) });
    expect(await read(text, 3, 16, Buffer.byteLength(text))).toEqual({ a: 'b'.repeat(10) });
    await expect(read(text, 3, 16, Buffer.byteLength(text) - 1)).rejects.toThrow(BigJsonError);
  });

  it('refuse a long string under a nested key named as a file field, beside a file', async () => {
    const long = 'y'.repeat(40);
    await expect(read(JSON.stringify({ content: long, nested: { content: long } }), 7)).rejects.toThrow(BigJsonError);
    await expect(read(JSON.stringify({ content: long, list: [{ file: long }] }), 7)).rejects.toThrow(BigJsonError);
  });
});
