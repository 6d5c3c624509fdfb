// How much of the request log one statement writes (request-log-sql.ts). A batch is encoded in one turn of
// the event loop and written by one statement; a batch of 500 listings (a page of records each) held every
// request in flight for milliseconds, ten times a second: the PostgreSQL store's list p99 was 13 to 15 ms
// against 5.5 to 7 ms with batches of 100 (docs/benchmarks.md, ninth session). So a batch is written once
// 100 requests wait, or once their kept bodies reach 256 KiB, whichever comes first, without waiting for
// the batch's timer.
import { expect, it } from 'vitest';
import { logsOnTestDatabases } from './request-log-sql-logs.test-helper.js';
import { rawRequest } from './request-log-rows.test-helper.js';
import type { SqlRequestLog } from './request-log-sql.js';

const key = 'ck_test_log_batch_size_0000';
/** A writer and a reader on a database of their own; the writer's timer never fires in the test. */
const logsOn = logsOnTestDatabases({ secrets: [key], batchMs: 60_000 });
const writerAndReader = async () => (await logsOn(2)) as [SqlRequestLog, SqlRequestLog];

const count = async (reader: SqlRequestLog) => (await reader.list(key, { limit: 1000 })).length;
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

it('writes a batch once 100 requests wait, not later', async () => {
  const [writer, reader] = await writerAndReader();
  for (let n = 1; n <= 99; n++) writer.record(rawRequest(n), key);
  await settle();
  expect(await count(reader)).toBe(0);
  writer.record(rawRequest(100), key);
  await expect.poll(() => count(reader), { timeout: 5000 }).toBe(100);
}, 30_000);

it('writes a batch once the bodies waiting reach 256 KiB, however few the requests', async () => {
  const [writer, reader] = await writerAndReader();
  // Requests and answers a little over 16 KiB each (the log keeps 16 KiB of a body): 7 requests are less than
  // 256 KiB, 8 more.
  const big = (n: number) => rawRequest(n, { body: { n, pad: 'r'.repeat(16 * 1024) }, answer: { pad: 'a'.repeat(16 * 1024) } });
  for (let n = 1; n <= 7; n++) writer.record(big(n), key);
  await settle();
  expect(await count(reader)).toBe(0);
  writer.record(big(8), key);
  await expect.poll(() => count(reader), { timeout: 5000 }).toBe(8);
  // The next batch counts its own bodies only.
  for (let n = 9; n <= 15; n++) writer.record(big(n), key);
  await settle();
  expect(await count(reader)).toBe(8);
  writer.record(big(16), key);
  await expect.poll(() => count(reader), { timeout: 5000 }).toBe(16);
}, 30_000);
