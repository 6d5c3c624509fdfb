// A receiver whose answer is cut off (the status and part of the body, then the connection drops): the
// attempt is a failure without a status, retried like any failure (README: "retried on any non-2xx
// answer, network error or timeout"), and the sandbox goes on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callbackKeyA, keyA, startTestSandbox } from './sandbox.test-helper.js';

let receiver: Server | undefined;
let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  receiver?.closeAllConnections();
  receiver?.close();
  receiver = undefined;
});

describe('an answer cut off mid-body', () => {
  it('is a failure with no status, and the retry delivers', async () => {
    let hits = 0;
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (++hits > 1) return void res.writeHead(200).end();
        // 200 and 7 of the 100 bytes it announces, then the connection drops.
        res.writeHead(200, { 'content-length': 100 });
        res.write('partial', () => res.socket?.destroy());
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
    t = await startTestSandbox({
      deliveryPolicy: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000 },
      config: { companies: [{ name: 'Company A', companyKey: keyA, callbackUrl: url, callbackApiKey: callbackKeyA }] },
    });
    const { id } = (await t.sandbox.invoke('begin', { companyKey: keyA })).json as { id: string };
    await t.sandbox.invoke('sandboxCompleteSession', { companyKey: keyA, sessionId: id, result: 'approved' });
    await t.sandbox.dispatcher.idle();
    const log = ((await t.sandbox.invoke('sandboxListCallbacks', { companyKey: keyA })).json as { result: Record<string, unknown>[] }).result;
    expect(log.map((entry) => [entry.attempt, entry.outcome, entry.status])).toEqual([
      [1, 'failed', null],
      [2, 'delivered', 200],
    ]);
  });
});
