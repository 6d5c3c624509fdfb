// The per-session queue of callbacks and the company's bound on waiting events (README: "in order per
// session"; Limits: `maxQueuedCallbacks`), in the cases the delivery tests do not reach: an event queued
// while the one before it waits for a retry still goes after it, and each event that is done frees one
// place of the bound, no more.
import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { callbackLog, closeAfterEach, companyA, startCallbackSandbox, startReceiver, until, type DeliveryPolicy, type TestSandbox } from './callback-receiver.test-helper.js';
import { keyA } from './sandbox.test-helper.js';

let t: TestSandbox | undefined;
closeAfterEach();

async function start(url: string, policy: DeliveryPolicy, limits = {}) {
  t = await startCallbackSandbox(policy, [companyA(url)], { maxConnectionsPerReceiver: 1, ...limits });
  const { id } = (await t.sandbox.invoke('begin', { companyKey: keyA })).json as { id: string };
  return id;
}

/** Raises a one-time-password callback on the session; the phone number tells the events apart. */
async function raise(sessionId: string, phoneNumber: string) {
  expect(await t!.sandbox.invoke('sandboxRaiseEvent', { companyKey: keyA, sessionId, type: 'one-time-password-request', phoneNumber })).toEqual({ status: 200, json: { result: true } });
}

const logOf = () => callbackLog(t!);

describe('one session\'s queue', () => {
  it('keeps an event queued while the one before it waits for a retry behind that retry', async () => {
    // The second event fails once; the others are delivered at once.
    const receiver = await startReceiver((hit, _index, res) => res.writeHead(hit.body.phoneNumber === '+10000000002' && receiver.hits.filter((h) => h.body.phoneNumber === '+10000000002').length === 1 ? 503 : 200).end());
    const session = await start(receiver.url, { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 5_000 });
    // The back-off runs on fake time; HTTP on real I/O.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await raise(session, '+10000000001');
    await raise(session, '+10000000002');
    await until(async () => (await logOf()).map((entry) => entry.outcome).join() === 'delivered,failed' && vi.getTimerCount() === 1, 'the second event to fail and wait for its retry');
    await raise(session, '+10000000003');
    // Time for the third to go out, were it not queued behind the second.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    vi.advanceTimersToNextTimer();
    vi.useRealTimers();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.phoneNumber)).toEqual(['+10000000001', '+10000000002', '+10000000002', '+10000000003']);
  });
});

describe('the bound on waiting events (maxQueuedCallbacks)', () => {
  it('gets one place back for each event that is done', async () => {
    const held: ServerResponse[] = [];
    const receiver = await startReceiver((_hit, _index, res) => void held.push(res));
    const session = await start(receiver.url, { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 30_000 }, { maxQueuedCallbacks: 2 });
    await raise(session, '+10000000001');
    await raise(session, '+10000000002');
    await until(() => held.length === 1, 'the first event');
    // The first is done, the second under way: one place is free, so of two more events one waits and one is given up.
    held.shift()!.writeHead(200).end();
    await until(() => held.length === 1, 'the second event');
    await raise(session, '+10000000003');
    await raise(session, '+10000000004');
    expect((await logOf()).map((entry) => [entry.payload.phoneNumber, entry.outcome])).toEqual([
      ['+10000000001', 'delivered'],
      ['+10000000002', 'pending'],
      ['+10000000004', 'failed'],
    ]);
    held.shift()!.writeHead(200).end();
    await until(() => held.length === 1, 'the third event');
    held.shift()!.writeHead(200).end();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.phoneNumber)).toEqual(['+10000000001', '+10000000002', '+10000000003']);
  });
});
