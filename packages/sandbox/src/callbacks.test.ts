import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callbackKeyA, keyA, startTestSandbox } from './sandbox.test-helper.js';
import { demoSessionConfigs } from './companies.js';

type Received = { body: Record<string, unknown> };
let receiver: Server | undefined;
let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  receiver?.close();
});

/** A receiver that fails its first `failures` requests with 503, then accepts. */
async function startReceiver(failures: number) {
  const received: Received[] = [];
  let seen = 0;
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      seen++;
      if (seen <= failures) {
        res.writeHead(503).end();
        return;
      }
      received.push({ body: JSON.parse(text) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`, received };
}

const fastPolicy = { maxAttempts: 10, baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 1_000 };

describe('callbacks', () => {
  it('deliver session-change with the callback key, retried through an outage, in order per session', async () => {
    const { url, received } = await startReceiver(3);
    t = await startTestSandbox({
      deliveryPolicy: fastPolicy,
      config: { companies: [{ companyKey: keyA, callbackUrl: url, callbackApiKey: callbackKeyA, sessionConfigs: demoSessionConfigs }] },
    });
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.control.requestAdditionalInformation({ sessionId: id });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    const { id: kyb } = await t.a.begin({ configId: 'cfg-kyb-standard-01' });
    await t.control.completeSession({ sessionId: kyb, result: 'manual-check' });
    await t.sandbox.dispatcher.idle();

    const ofSession = received.filter((r) => r.body.sessionId === id).map((r) => r.body.result);
    expect(ofSession).toEqual(['ADDITIONAL_INFORMATION_REQUESTED', 'APPROVED']);
    expect(received.find((r) => r.body.sessionId === kyb)?.body).toEqual({ callbackApiKey: callbackKeyA, type: 'session-change', sessionId: kyb, result: 'MANUAL_CHECK', sessionType: 'kyb' });
    expect(received).toHaveLength(3);

    const { result: log } = await t.control.listCallbacks();
    expect(log.filter((a) => a.outcome === 'failed')).toHaveLength(3);
    expect(log.filter((a) => a.outcome === 'delivered')).toHaveLength(3);
    expect(JSON.stringify(log)).not.toContain(callbackKeyA);
  });

  it('are not sent for a company without a callback URL', async () => {
    t = await startTestSandbox();
    const { id } = await t.a.begin({});
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    await t.sandbox.dispatcher.idle();
    expect((await t.control.listCallbacks()).result).toEqual([]);
  });
});
