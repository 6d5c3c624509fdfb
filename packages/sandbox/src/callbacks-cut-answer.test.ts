// A receiver whose answer is cut off (the status and part of the body, then the connection drops): the
// attempt is a failure without a status, retried like any failure (README: "retried on any non-2xx
// answer, network error or timeout"), and the sandbox goes on.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { callbackLog, closeAfterEach, companyA, listen, startCallbackSandbox } from './callback-receiver.test-helper.js';
import { keyA } from './sandbox.test-helper.js';

closeAfterEach();

describe('an answer cut off mid-body', () => {
  it('is a failure with no status, and the retry delivers', async () => {
    let hits = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (++hits > 1) return void res.writeHead(200).end();
        // 200 and 7 of the 100 bytes it announces, then the connection drops.
        res.writeHead(200, { 'content-length': 100 });
        res.write('partial', () => res.socket?.destroy());
      });
    });
    const url = await listen(receiver);
    const t = await startCallbackSandbox({ maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000 }, [companyA(url)]);
    const { id } = (await t.sandbox.invoke('begin', { companyKey: keyA })).json as { id: string };
    await t.sandbox.invoke('sandboxCompleteSession', { companyKey: keyA, sessionId: id, result: 'approved' });
    await t.sandbox.dispatcher.idle();
    const log = await callbackLog(t);
    expect(log.map((entry) => [entry.attempt, entry.outcome, entry.status])).toEqual([
      [1, 'failed', null],
      [2, 'delivered', 200],
    ]);
  });
});
