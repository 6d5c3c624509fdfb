// A body that reaches the console's request log in pieces (an answer written with several write calls,
// a request the parser pushes in chunks) is shown as its first maxKeptBytes bytes and counted whole,
// wherever the pieces cut it: a piece that crosses the bound, pieces after it, strings or bytes, and an
// answer ended with no piece or with only a callback.
import { expect, it } from 'vitest';
import { maxKeptBytes } from './redact.js';
import { exchange, ringOf } from './request-ring-in-process.test-helper.js';

async function answered(write: (res: import('node:http').ServerResponse) => void) {
  const ring = ringOf([]);
  await exchange(ring, {
    answer: (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      write(res);
    },
  });
  return ring.list(undefined)[0]!.entry.response;
}

it('keeps the bytes up to the bound of a string that crosses it, and counts all of its bytes', async () => {
  const response = await answered((res) => {
    res.write('x'.repeat(maxKeptBytes - 2));
    res.end('abcd');
  });
  expect(response).toMatchObject({ size: maxKeptBytes + 2, truncated: true });
  expect(response.text).toBe(`${'x'.repeat(maxKeptBytes - 2)}ab`);
});

it('counts the strings written after the bound is reached', async () => {
  const response = await answered((res) => {
    res.write('x'.repeat(maxKeptBytes));
    res.write('é'.repeat(50));
    res.end('y'.repeat(100));
  });
  expect(response).toMatchObject({ size: maxKeptBytes + 200, truncated: true, text: 'x'.repeat(maxKeptBytes) });
});

it('keeps the bytes up to the bound of pieces of bytes that cross it, and counts the rest', async () => {
  const half = maxKeptBytes / 2 + 1000;
  const response = await answered((res) => {
    res.write(Buffer.alloc(half, 'a'));
    res.write(Buffer.alloc(half, 'b'));
    res.end(Buffer.alloc(10, 'c'));
  });
  expect(response).toMatchObject({ size: 2 * half + 10, truncated: true });
  expect(response.text).toBe('a'.repeat(half) + 'b'.repeat(maxKeptBytes - half));
});

it('shows an answer ended with no piece, or with only a callback, as written before', async () => {
  expect(await answered((res) => {
    res.write('written ');
    res.write('first');
    res.end();
  })).toMatchObject({ size: 13, text: 'written first', truncated: false });
  expect(await answered((res) => {
    res.write('then ', () => {});
    res.end(() => {});
  })).toMatchObject({ size: 5, text: 'then ', truncated: false });
});

it('keeps the first bytes of a request pushed in chunks across the bound, and counts them all', async () => {
  const ring = ringOf([]);
  const chunk = (letter: string) => Buffer.alloc(6000, letter);
  await exchange(ring, { rawHeaders: ['Content-Type', 'text/plain'], body: [chunk('a'), chunk('b'), chunk('c'), chunk('d')] });
  const { request } = ring.list(undefined)[0]!.entry;
  expect(request).toMatchObject({ size: 24_000, truncated: true });
  expect(request.text).toBe('a'.repeat(6000) + 'b'.repeat(6000) + 'c'.repeat(maxKeptBytes - 12_000));
});
