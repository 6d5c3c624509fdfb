// The console's entry of a request and the server's log line give one duration for it: server.ts times
// its line from when the request log began watching the request (`watchedSince`) to when the log's entry
// took its end (`finishedAt`), and the entry shows that span in milliseconds to one decimal.
import { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { finishedAt, tappable, watchedSince } from './request-ring.js';
import { exchange, ringOf } from './request-ring-in-process.test-helper.js';

it("shows the span from the watch's start to the entry's end, in milliseconds to one decimal", async () => {
  const ring = ringOf([]);
  let started: number | undefined;
  const res = await exchange(ring, {
    // A few milliseconds between the start and the end, so that the span is not rounded away.
    beforeFinish: async (res) => {
      started = watchedSince(res);
      await sleep(5);
    },
  });
  const ended = finishedAt(res);
  expect(typeof started).toBe('number');
  expect(typeof ended).toBe('number');
  const { durationMs } = ring.list(undefined)[0]!.entry;
  expect(durationMs).toBe(Math.round((ended! - started!) * 10) / 10);
  expect(durationMs).toBeGreaterThan(0);
});

it('gives the end of an entry once, and only for the answer that finished last', async () => {
  const ring = ringOf([]);
  const earlier = await exchange(ring);
  const later = await exchange(ring);
  expect(finishedAt(earlier)).toBeUndefined();
  expect(finishedAt(later)).toBeGreaterThan(0);
  expect(finishedAt(later)).toBeUndefined();
});

it('gives no start for an answer the log does not watch, or no longer watches', async () => {
  const ring = ringOf([]);
  const req = new tappable.IncomingMessage(new Socket());
  const res = new tappable.ServerResponse(req);
  expect(watchedSince(res)).toBeUndefined();
  const finished = await exchange(ring);
  expect(watchedSince(finished)).toBeUndefined();
});
