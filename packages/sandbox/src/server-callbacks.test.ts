// The server's side of callbacks: an operation's events are sent; a seeded sandbox gives the same event
// IDs every run and again after an admin reset; a reset, of everything or of one company, drops the events
// still waiting; the control API lists a company's attempts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callbackLog, demoCompanyA, receiveBodies, until } from './callback-receiver.test-helper.js';
import { adminToken, keyA, keyB, startTestSandbox } from './sandbox.test-helper.js';

type TestSandbox = Awaited<ReturnType<typeof startTestSandbox>>;
const cleanUps: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

async function start(seeded = true) {
  const receiver = await receiveBodies<{ type: string; sessionId: string }>();
  cleanUps.push(receiver.close);
  const t = await startTestSandbox({ seed: seeded ? 1 : undefined, config: { companies: [demoCompanyA(receiver.url), { name: 'Company B', companyKey: keyB, callbackUrl: receiver.url }] } });
  cleanUps.push(t.close);
  return { t, received: receiver.received };
}

/** Begins a session of the company and finishes it, which queues one session-change callback. */
async function finishOne(t: TestSandbox, companyKey = keyA) {
  const { id } = (await t.sandbox.invoke('begin', { companyKey })).json as { id: string };
  expect((await t.sandbox.invoke('sandboxCompleteSession', { companyKey, sessionId: id, result: 'approved' })).status).toBe(200);
  return id;
}

describe('callbacks of a request', () => {
  it('are sent, and listed with their event IDs, which a seeded sandbox repeats every run and after an admin reset', async () => {
    const { t, received } = await start();
    const first = await finishOne(t);
    await t.sandbox.dispatcher.idle();
    expect(received).toEqual([expect.objectContaining({ type: 'session-change', sessionId: first })]);
    const listed = await (await fetch(`${t.url}/sandbox/callbacks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: keyA }) })).json();
    expect(listed.result).toEqual([expect.objectContaining({ attempt: 1, sessionId: first, outcome: 'delivered', status: 200 })]);
    const eventId = listed.result[0].eventId as string;
    expect(eventId).toMatch(/^evt_/);

    const again = await start();
    await finishOne(again.t);
    await again.t.sandbox.dispatcher.idle();
    expect((await callbackLog(again.t)).map((entry) => entry.eventId)).toEqual([eventId]);

    await t.control.reset({ adminToken });
    await finishOne(t);
    await t.sandbox.dispatcher.idle();
    expect((await callbackLog(t)).map((entry) => entry.eventId)).toEqual([eventId]);
  });

  it('without a seed have event IDs that do not repeat, also after an admin reset', async () => {
    const one = await start(false);
    const two = await start(false);
    for (const { t } of [one, two]) {
      await finishOne(t);
      await t.sandbox.dispatcher.idle();
    }
    const [a, b] = [await callbackLog(one.t), await callbackLog(two.t)];
    expect(a[0]!.eventId).not.toBe(b[0]!.eventId);
    // Nor after an admin reset, which starts a new random sequence rather than a seeded one.
    for (const { t } of [one, two]) {
      await t.control.reset({ adminToken });
      await finishOne(t);
      await t.sandbox.dispatcher.idle();
    }
    const [c, d] = [await callbackLog(one.t), await callbackLog(two.t)];
    expect(c[0]!.eventId).not.toBe(d[0]!.eventId);
  });
});

describe('the delivery policy given', () => {
  it('is the one followed: one attempt only, then the event is given up', async () => {
    const failing = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(503).end());
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    cleanUps.push(() => (failing.closeAllConnections(), failing.close()));
    const callbackUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/callbacks`;
    const t = await startTestSandbox({ deliveryPolicy: { maxAttempts: 1, baseDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 5_000 }, config: { companies: [demoCompanyA(callbackUrl)] } });
    cleanUps.push(t.close);
    await finishOne(t);
    await t.sandbox.dispatcher.idle();
    expect((await callbackLog(t)).map((entry) => [entry.attempt, entry.outcome, entry.status])).toEqual([[1, 'failed', 503]]);
  });
});

describe('a retry', () => {
  it('waits a random part of the back-off, not no time at all', async () => {
    let calls = 0;
    const flaky = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(++calls === 1 ? 503 : 200).end());
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    cleanUps.push(() => (flaky.closeAllConnections(), flaky.close()));
    const callbackUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/callbacks`;
    const t = await startTestSandbox({ deliveryPolicy: { maxAttempts: 2, baseDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 5_000 }, config: { companies: [demoCompanyA(callbackUrl)] } });
    cleanUps.push(t.close);
    cleanUps.push(() => vi.useRealTimers());
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await finishOne(t);
    await until(async () => (await callbackLog(t)).map((entry) => entry.outcome).join() === 'failed' && vi.getTimerCount() === 1, 'the first attempt to fail and its retry to wait');
    const before = Date.now();
    vi.advanceTimersToNextTimer();
    const waited = Date.now() - before;
    vi.useRealTimers();
    await t.sandbox.dispatcher.idle();
    expect((await callbackLog(t)).map((entry) => entry.outcome)).toEqual(['failed', 'delivered']);
    // The seeded draw of this sandbox: the same every run, somewhere in the minute of the back-off.
    expect(waited).toBeGreaterThan(1);
    expect(waited).toBeLessThan(60_000);
  });
});

describe('a reset', () => {
  it('with the admin token drops every company\'s waiting events', async () => {
    const { t, received } = await start();
    await t.sandbox.dispatcher.setPaused(keyA, true);
    await t.sandbox.dispatcher.setPaused(keyB, true);
    await finishOne(t, keyA);
    await finishOne(t, keyB);
    expect((await t.sandbox.invoke('sandboxReset', { adminToken })).json).toEqual({ result: true });
    await t.sandbox.dispatcher.setPaused(keyA, false);
    await t.sandbox.dispatcher.setPaused(keyB, false);
    await t.sandbox.dispatcher.idle();
    expect(received).toEqual([]);
  });

  it('of a company drops its waiting events and its log, and leaves another company\'s', async () => {
    const { t, received } = await start();
    await finishOne(t, keyB);
    await t.sandbox.dispatcher.idle();
    await t.sandbox.dispatcher.setPaused(keyA, true);
    await t.sandbox.dispatcher.setPaused(keyB, true);
    await finishOne(t, keyA);
    const ofB = await finishOne(t, keyB);
    expect((await t.sandbox.invoke('sandboxReset', { companyKey: keyA })).json).toEqual({ result: true });
    await t.sandbox.dispatcher.setPaused(keyA, false);
    await t.sandbox.dispatcher.setPaused(keyB, false);
    await t.sandbox.dispatcher.idle();
    expect(received.map((body) => body.sessionId)).toEqual([received[0]!.sessionId, ofB]);
    expect(await callbackLog(t, keyA)).toEqual([]);
    expect(await callbackLog(t, keyB)).toHaveLength(2);

    expect((await t.sandbox.invoke('sandboxReset', { companyKey: keyB })).json).toEqual({ result: true });
    expect(await callbackLog(t, keyB)).toEqual([]);
  });
});
