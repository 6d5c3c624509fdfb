// A body that fills its place of the ring's arena exactly (256 bytes, request-ring.ts `Bodies`) stays in
// its place: the entry next to it, older and still listed, shows its own request as it came.
import { afterEach, expect, it } from 'vitest';
import { ringBehindEcho } from './request-ring-echo.test-helper.js';

let close = () => {};
afterEach(() => close());

it('shows the older entry its own request after an answer of exactly 256 bytes in the place before it', async () => {
  // Each request says how long its answer is, and of which letter.
  const echo = await ringBehindEcho('ck_test_full_place_0', (body, res) => {
    const [letter, length] = body.toString('utf8').split(':');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(letter!.repeat(Number(length)));
  });
  const { ring, url } = echo;
  close = echo.close;
  const send = (body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body }).then((r) => r.text());
  // A long answer first (the bytes after an answer's 256th are then Zs), then entry B in the second place,
  // then an answer of 256 Cs in the first place again, just before B's request in the arena.
  expect(await send('Z:1000')).toHaveLength(1000);
  await send('B:3');
  expect(await send('C:256')).toBe('C'.repeat(256));
  const [latest, older] = ring.list(undefined);
  expect(latest!.entry.response.text).toBe('C'.repeat(256));
  expect(latest!.entry.request.text).toBe('C:256');
  expect(older!.entry.request.text).toBe('B:3');
  expect(older!.entry.response.text).toBe('BBB');
});
