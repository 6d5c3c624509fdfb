// The console's pause of callback delivery (openapi/sandbox set-callback-delivery, get-callback-delivery), as
// a receiver and the control API see it: while a company's delivery is paused its events, new and retried
// alike, wait and nothing is sent or logged for them; other companies' go on; a resume sends what waited, in
// order; pausing twice needs one resume; a reset resumes delivery ("A reset resumes delivery").
import { describe, expect, it, vi } from 'vitest';
import { callbackLog, closeAfterEach, companyA, companyB, startCallbackSandbox, startReceiver, until, type TestSandbox } from './callback-receiver.test-helper.js';
import { demoSessionConfigs } from './companies.js';
import { adminToken, callbackKeyA, keyA, keyB } from './sandbox.test-helper.js';

let t: TestSandbox | undefined;
closeAfterEach();

const fast = { maxAttempts: 10, baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 5_000 };

/** Companies A (with a callback key) and B, both sending to `url`, one connection at a time to it. */
async function start(url: string, policy = fast) {
  t = await startCallbackSandbox(policy, [{ ...companyA(url), sessionConfigs: demoSessionConfigs }, companyB(url)], { maxConnectionsPerReceiver: 1 });
  return t;
}

/** A session finished in-process (no client timers): one session-change callback. */
async function finished(companyKey = keyA, result: 'approved' | 'rejected' | 'manual-check' = 'approved') {
  const { id } = (await t!.sandbox.invoke('begin', { companyKey })).json as { id: string };
  await t!.sandbox.invoke('sandboxCompleteSession', { companyKey, sessionId: id, result });
  return id;
}

const paused = async (companyKey = keyA) => ((await t!.sandbox.invoke('sandboxGetCallbackDelivery', { companyKey })).json as { result: { paused: boolean } }).result.paused;
const setPaused = async (value: boolean, companyKey = keyA) => expect(await t!.sandbox.invoke('sandboxSetCallbackDelivery', { companyKey, paused: value })).toEqual({ status: 200, json: { result: true } });
const logOf = (companyKey = keyA) => callbackLog(t!, companyKey);

describe('pausing callback delivery', () => {
  it('holds the company\'s new events (nothing sent, nothing logged) while other companies\' go out; a resume sends them in order', async () => {
    const receiver = await startReceiver();
    await start(receiver.url);
    expect([await paused(), await paused(keyB)]).toEqual([false, false]);
    await setPaused(true);
    expect([await paused(), await paused(keyB)]).toEqual([true, false]);
    // A's events come first; with one connection to the receiver, they would go out before B's.
    const ofA = await finished(keyA, 'rejected');
    const { id: asked } = (await t!.sandbox.invoke('begin', { companyKey: keyA, configId: 'cfg-kyc-standard-01' })).json as { id: string };
    await t!.sandbox.invoke('sandboxRequestAdditionalInformation', { companyKey: keyA, sessionId: asked });
    await t!.sandbox.invoke('sandboxCompleteSession', { companyKey: keyA, sessionId: asked, result: 'approved' });
    const ofB = await finished(keyB);
    await until(() => receiver.hits.length === 1, 'company B\'s event');
    expect(receiver.hits[0]!.body.sessionId).toBe(ofB);
    expect(await logOf()).toEqual([]);
    expect(await paused()).toBe(true);

    await setPaused(false);
    expect(await paused()).toBe(false);
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.slice(1).map((hit) => [hit.body.sessionId, hit.body.result])).toEqual([
      [ofA, 'REJECTED'],
      [asked, 'ADDITIONAL_INFORMATION_REQUESTED'],
      [asked, 'APPROVED'],
    ]);
    expect(receiver.hits[1]!.body.callbackApiKey).toBe(callbackKeyA);
    expect((await logOf()).map((entry) => entry.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('holds a retry too: an event that failed before the pause is sent again only after the resume', async () => {
    const receiver = await startReceiver((hit, index, res) => res.writeHead(index === 0 ? 503 : 200).end());
    await start(receiver.url, { ...fast, baseDelayMs: 60_000, maxDelayMs: 60_000 });
    // The back-off runs on fake time; HTTP on real I/O.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const ofA = await finished();
    await until(async () => (await logOf()).at(-1)?.outcome === 'failed' && vi.getTimerCount() === 1, 'the first attempt to fail and its retry to wait');
    await setPaused(true);
    vi.advanceTimersToNextTimer(); // the back-off is over: the retry would go now
    await new Promise((resolve) => setImmediate(resolve));
    // B's event is queued after A's retry was due, and gets the one connection first.
    const ofB = await finished(keyB);
    await until(() => receiver.hits.length === 2, 'company B\'s event');
    expect(receiver.hits.map((hit) => hit.body.sessionId)).toEqual([ofA, ofB]);
    expect((await logOf()).map((entry) => [entry.attempt, entry.outcome])).toEqual([[1, 'failed']]);

    await setPaused(false);
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.sessionId)).toEqual([ofA, ofB, ofA]);
    expect((await logOf()).map((entry) => [entry.attempt, entry.outcome])).toEqual([
      [1, 'failed'],
      [2, 'delivered'],
    ]);
  });

  it('twice is one pause: a single resume sends what waited', async () => {
    const receiver = await startReceiver();
    await start(receiver.url);
    await setPaused(true);
    const first = await finished();
    await setPaused(true);
    const second = await finished();
    expect(await paused()).toBe(true);
    await setPaused(false);
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.sessionId)).toEqual([first, second]);
    // Resuming delivery that is not paused changes nothing.
    await setPaused(false);
    expect(await paused()).toBe(false);
    const third = await finished();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.sessionId)).toEqual([first, second, third]);
  });

  it('ends with a company reset: the events that waited are dropped, and new ones go out at once', async () => {
    const receiver = await startReceiver();
    await start(receiver.url);
    await setPaused(true);
    await setPaused(true, keyB);
    await finished();
    expect(await t!.sandbox.invoke('sandboxReset', { companyKey: keyA })).toEqual({ status: 200, json: { result: true } });
    expect([await paused(), await paused(keyB)]).toEqual([false, true]);
    const after = await finished(keyA, 'manual-check');
    await until(() => receiver.hits.length === 1, 'the new event');
    expect(receiver.hits.map((hit) => [hit.body.sessionId, hit.body.result])).toEqual([[after, 'MANUAL_CHECK']]);
    await until(async () => (await logOf()).at(-1)?.outcome === 'delivered', 'the delivery to be logged');
    expect((await logOf()).map((entry) => [entry.sessionId, entry.outcome])).toEqual([[after, 'delivered']]);
    // B stays paused until its own resume.
    const ofB = await finished(keyB);
    await setPaused(false, keyB);
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.sessionId)).toEqual([after, ofB]);
  });

  it('ends for every company with the admin reset, which drops what waited', async () => {
    const receiver = await startReceiver();
    await start(receiver.url);
    await setPaused(true);
    await setPaused(true, keyB);
    await finished();
    await finished(keyB);
    expect(await t!.sandbox.invoke('sandboxReset', { adminToken })).toEqual({ status: 200, json: { result: true } });
    expect([await paused(), await paused(keyB)]).toEqual([false, false]);
    await t!.sandbox.dispatcher.idle();
    const ofA = await finished();
    const ofB = await finished(keyB);
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.sessionId)).toEqual([ofA, ofB]);
    expect([(await logOf()).length, (await logOf(keyB)).length]).toEqual([1, 1]);
  });
});
