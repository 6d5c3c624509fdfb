// The bodies a console shows from the request log on PostgreSQL (request-log-sql.ts) are the bodies each
// request came with and was answered with, byte for byte, however many requests one batch writes and
// whatever their sizes: empty, a few bytes, a page of records, characters of several bytes in UTF-8.
import { expect, it } from 'vitest';
import { logsOnTestDatabases } from './request-log-sql-logs.test-helper.js';
import { rawRequest } from './request-log-rows.test-helper.js';

const key = 'ck_test_log_bodies_0000';
const logsOn = logsOnTestDatabases({ secrets: [key], batchMs: 60_000 });

/** Request n's body and answer: lengths that differ from one request to the next, some characters of 2 to 4 bytes. */
const bodyOf = (n: number) => ({ n, name: `Zoë ${'ü'.repeat(n % 7)}`, note: '€'.repeat((n * 13) % 50) });
const answerOf = (n: number) => `page ${n}: ${'😀'.repeat(n % 5)}${'record '.repeat((n * 37) % 400)}`;

it("shows each request's body and answer as they were, for a batch of a hundred requests of different sizes", async () => {
  const [writer, reader] = await logsOn(2);
  for (let n = 1; n <= 100; n++) {
    const request = n % 10 === 0 ? Buffer.alloc(0) : Buffer.from(JSON.stringify(bodyOf(n)));
    const response = Buffer.from(answerOf(n));
    // The 100th request fills the batch: it is written at once, by one statement.
    writer!.record(rawRequest(n, { requestBytes: request, requestSize: request.length, responseType: 'text/plain', responseBytes: response, responseSize: response.length }), key);
  }
  await expect.poll(async () => (await reader!.list(key, { limit: 1000 })).length, { timeout: 5000 }).toBe(100);
  const listed = (await reader!.list(key, { limit: 1000 })).reverse();
  listed.forEach(({ entry }, i) => {
    const n = i + 1;
    expect(entry.request.text === null ? null : JSON.parse(entry.request.text)).toEqual(n % 10 === 0 ? null : bodyOf(n));
    expect(entry.response.text).toBe(answerOf(n));
  });
}, 60_000);
