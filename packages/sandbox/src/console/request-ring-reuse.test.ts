// The request log reuses its places and their buffers (request-ring.ts): an entry handed out before its
// place is taken by a newer request still shows its own request, and IDs find only what the ring holds.
import { afterEach, expect, it } from 'vitest';
import type { RingEntry } from './request-ring.js';
import { ringBehindEcho } from './request-ring-echo.test-helper.js';

let close = () => {};
afterEach(() => close());

it('keeps an entry handed out right after its place in the ring is reused', async () => {
  const echo = await ringBehindEcho('ck_test_reuse_0000', (body, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  const { ring, url } = echo;
  close = echo.close;
  const send = (n: number) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n, pad: 'x'.repeat(700) }) }).then((r) => r.text());
  const streamed: RingEntry[] = [];
  ring.subscribe((item) => streamed.push(item));
  for (const n of [1, 2, 3, 4, 5]) await send(n);
  const first = streamed[0];
  // Entry 1's place and buffers now hold newer requests: what was handed out (and not yet read) is unchanged.
  expect(JSON.parse(first!.entry.request.text!).n).toBe(1);
  expect(JSON.parse(first!.entry.response.text!).n).toBe(1);
  expect(first!.entry.response.contentType).toBe('application/json');
  expect(streamed.map((item) => JSON.parse(item.entry.request.text!).n)).toEqual([1, 2, 3, 4, 5]);
  expect(ring.list('ck_test_reuse_0000').map((item) => JSON.parse(item.entry.response.text!).n)).toEqual([5, 4]);
  expect(ring.get('req_000001')).toBeUndefined();
  expect(ring.get('req_000005')?.entry.id).toBe('req_000005');
  expect(ring.get('req_5')).toBeUndefined();
});
