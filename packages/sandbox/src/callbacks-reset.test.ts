// What a company reset does to callbacks (openapi/sandbox reset: it forgets the company's callback log; the
// events it had waiting are dropped), in the cases callbacks-behaviour.test.ts does not reach: every reset
// stops the retries of events from before it, the second as the first; and another company's queue is
// left as it was, so its events keep their order.
import { describe, expect, it, vi } from 'vitest';
import { callbackLog, closeAfterEach, companyA, companyB, startCallbackSandbox, startReceiver, until, type TestSandbox } from './callback-receiver.test-helper.js';
import { keyA, keyB } from './sandbox.test-helper.js';

let t: TestSandbox | undefined;
closeAfterEach();

/** Companies A and B sending to `url`; a retry waits a minute of fake time. */
async function start(url: string) {
  t = await startCallbackSandbox({ maxAttempts: 2, baseDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 5_000 }, [companyA(url), companyB(url)]);
}

const reset = async (companyKey: string) => expect(await t!.sandbox.invoke('sandboxReset', { companyKey })).toEqual({ status: 200, json: { result: true } });
const begin = async (companyKey: string) => ((await t!.sandbox.invoke('begin', { companyKey })).json as { id: string }).id;
const logOf = (companyKey: string) => callbackLog(t!, companyKey);

describe('a company reset', () => {
  it('stops the retries of the events from before it, the second reset as the first', async () => {
    const receiver = await startReceiver((_hit, _index, res) => res.writeHead(503).end());
    await start(receiver.url);
    for (let round = 1; round <= 2; round++) {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const id = await begin(keyA);
      await t!.sandbox.invoke('sandboxCompleteSession', { companyKey: keyA, sessionId: id, result: 'approved' });
      await until(async () => (await logOf(keyA)).map((entry) => entry.outcome).join() === 'failed' && vi.getTimerCount() === 1, `round ${round}: the first attempt to fail and its retry to wait`);
      await reset(keyA);
      vi.advanceTimersToNextTimer(); // the retry's time has come: the reset has stopped it
      vi.useRealTimers();
      await t!.sandbox.dispatcher.idle();
      expect(receiver.hits.map((hit) => hit.body.sessionId)).toEqual(round === 1 ? [id] : [receiver.hits[0]!.body.sessionId, id]);
      expect(await logOf(keyA)).toEqual([]);
    }
  });

  it('leaves another company\'s queue as it was: an event queued after it still waits for the retry before it', async () => {
    // B's second event fails once; everything else is delivered.
    const receiver = await startReceiver((hit, _index, res) => res.writeHead(hit.body.phoneNumber === '+10000000002' && receiver.hits.filter((h) => h.body.phoneNumber === '+10000000002').length === 1 ? 503 : 200).end());
    await start(receiver.url);
    const session = await begin(keyB);
    const raise = async (phoneNumber: string) => expect((await t!.sandbox.invoke('sandboxRaiseEvent', { companyKey: keyB, sessionId: session, type: 'one-time-password-request', phoneNumber })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await raise('+10000000001');
    await raise('+10000000002');
    await until(async () => (await logOf(keyB)).map((entry) => entry.outcome).join() === 'delivered,failed' && vi.getTimerCount() === 1, 'the second event to fail and wait for its retry');
    await reset(keyA);
    await raise('+10000000003');
    // Time for the third to go out, were it not queued behind the second.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    vi.advanceTimersToNextTimer();
    vi.useRealTimers();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.phoneNumber)).toEqual(['+10000000001', '+10000000002', '+10000000002', '+10000000003']);
  });
});
