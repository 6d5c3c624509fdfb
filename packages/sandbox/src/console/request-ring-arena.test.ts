// The request log keeps short bodies in one arena of the ring's places and longer ones in a buffer of the
// place's own (request-ring.ts `Bodies`): whichever holds it, and whatever a place held before, an entry
// shows its own request and answer, cut at 16 KiB and counted whole.
import { afterEach, expect, it } from 'vitest';
import { maxKeptBytes } from './redact.js';
import { ringBehindEcho } from './request-ring-echo.test-helper.js';

let close = () => {};
afterEach(() => close());

it('shows each entry its own bodies, short or long, as places are reused', async () => {
  const echo = await ringBehindEcho('ck_test_arena_0000', (body, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`answer to ${body.toString('utf8')}`);
  });
  const { ring, url } = echo;
  close = echo.close;
  const bodyOf = (n: number, length: number) => `${n}\u00e9`.padEnd(length, String.fromCharCode(97 + (n % 26)));
  // Around the arena's 256 bytes (é takes two), far over it, over the 16 KiB kept, and back to short ones.
  const lengths = [1, 253, 254, 255, 256, 3000, 10, 20_000, 5, 300, 254, 1];
  const sent: string[] = [];
  for (const [n, length] of lengths.entries()) {
    const body = bodyOf(n, length);
    sent.push(body);
    await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body }).then((r) => r.text());
    const [latest, before] = ring.list(undefined);
    const shows = (text: string) => {
      const bytes = Buffer.from(text);
      return { text: bytes.subarray(0, maxKeptBytes).toString('utf8'), size: bytes.length, truncated: bytes.length > maxKeptBytes };
    };
    const { request, response } = latest!.entry;
    expect({ text: request.text, size: request.size, truncated: request.truncated }).toEqual(shows(body));
    expect({ text: response.text, size: response.size, truncated: response.truncated }).toEqual(shows(`answer to ${body}`));
    if (n > 0) expect(before!.entry.request.text).toBe(shows(sent[n - 1]!).text);
  }
});
