// Callback delivery as a receiver and the callback log see it: what counts as delivered (2xx, nothing
// else), how many attempts an event gets, the back-off between them (exponential with full jitter, capped),
// the timeout of an attempt, the order of one session's events and the independence of other sessions,
// the connections open to one receiver, and what a reset stops.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoSessionConfigs } from './companies.js';
import { adminToken, callbackKeyA, keyA, keyB, startTestSandbox } from './sandbox.test-helper.js';

type Hit = { body: Record<string, any>; at: number; method: string; type: string | undefined };
type Reply = (hit: Hit, index: number, res: ServerResponse) => void;

let receivers: Server[] = [];
let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  t = undefined;
  for (const receiver of receivers) {
    receiver.closeAllConnections();
    receiver.close();
  }
  receivers = [];
});

/** A receiver on 127.0.0.1 that records every request and lets `reply` answer it (or not). */
async function startReceiver(reply: Reply) {
  const hits: Hit[] = [];
  let open = 0;
  let most = 0;
  const receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    open++;
    most = Math.max(most, open);
    res.on('close', () => open--);
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const hit = { body: JSON.parse(text), at: performance.now(), method: req.method!, type: req.headers['content-type'] };
      hits.push(hit);
      reply(hit, hits.length - 1, res);
    });
  });
  receivers.push(receiver);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`, hits, most: () => most };
}

const status = (code: number): Reply => (_hit, _index, res) => res.writeHead(code).end();
const fast = { maxAttempts: 10, baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 1_000 };

async function start(url: string, deliveryPolicy = fast, limits = {}) {
  t = await startTestSandbox({
    deliveryPolicy,
    limits,
    config: {
      companies: [
        { name: 'Company A', companyKey: keyA, callbackUrl: url, callbackApiKey: callbackKeyA, sessionConfigs: demoSessionConfigs },
        { name: 'Company B', companyKey: keyB, callbackUrl: url },
      ],
    },
  });
  return t;
}

/** A new session of company A finished in-process, without HTTP (and the client's timers). */
async function finishedInProcess() {
  const { id } = (await t!.sandbox.invoke('begin', { companyKey: keyA, configId: 'cfg-kyc-standard-01' })).json as { id: string };
  await t!.sandbox.invoke('sandboxCompleteSession', { companyKey: keyA, sessionId: id, result: 'approved' });
}

/** A new session of company A, finished as `result`: one session-change callback. */
async function finished(result: 'approved' | 'rejected' | 'manual-check' = 'approved') {
  const { id } = await t!.a.begin({ configId: 'cfg-kyc-standard-01' });
  await t!.control.completeSession({ sessionId: id, result });
  return id;
}

const logOf = async (companyKey = keyA) => ((await t!.sandbox.invoke('sandboxListCallbacks', { companyKey })).json as { result: Record<string, any>[] }).result;
const until = async (condition: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  const deadline = performance.now() + ms;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
};

describe('what counts as delivered', () => {
  it.each([200, 201, 204, 299])('an answer %i delivers the event at the first attempt', async (code) => {
    const receiver = await startReceiver(status(code));
    await start(receiver.url);
    const id = await finished();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body)).toEqual([{ callbackApiKey: callbackKeyA, type: 'session-change', sessionId: id, result: 'APPROVED' }]);
    expect(receiver.hits.map((hit) => [hit.method, hit.type])).toEqual([['POST', 'application/json']]);
    expect((await logOf()).map((entry) => [entry.attempt, entry.outcome, entry.status])).toEqual([[1, 'delivered', code]]);
  });

  it.each([300, 302, 304, 400, 404, 429, 500, 503])('an answer %i is a failure, retried until the attempts run out', async (code) => {
    const receiver = await startReceiver(status(code));
    await start(receiver.url, { ...fast, maxAttempts: 3 });
    await finished();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits).toHaveLength(3);
    expect((await logOf()).map((entry) => [entry.attempt, entry.outcome, entry.status])).toEqual([
      [1, 'failed', code],
      [2, 'failed', code],
      [3, 'failed', code],
    ]);
  });

  it('a receiver that is not there is a failure with no status, retried', async () => {
    const receiver = await startReceiver(status(200));
    await start(receiver.url.replace(/:\d+\//, ':1/'), { ...fast, maxAttempts: 2 });
    await finished();
    await t!.sandbox.dispatcher.idle();
    expect((await logOf()).map((entry) => [entry.attempt, entry.outcome, entry.status])).toEqual([
      [1, 'failed', null],
      [2, 'failed', null],
    ]);
  });

  it('stops at the first delivery: two failures, then one delivery, then nothing more', async () => {
    const receiver = await startReceiver((_hit, index, res) => res.writeHead(index < 2 ? 500 : 200).end());
    await start(receiver.url);
    await finished();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits).toHaveLength(3);
    expect((await logOf()).map((entry) => [entry.attempt, entry.outcome])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'delivered'],
    ]);
  });
});

describe('the callback log', () => {
  it('has one entry per attempt: event ID, attempt, type, session, URL, the sandbox clock\'s time, outcome, status and the payload with the key redacted', async () => {
    const receiver = await startReceiver((_hit, index, res) => res.writeHead(index === 0 ? 503 : 200).end());
    await start(receiver.url);
    const id = await finished('rejected');
    await t!.sandbox.dispatcher.idle();
    const log = await logOf();
    const payload = { callbackApiKey: '[redacted]', type: 'session-change', sessionId: id, result: 'REJECTED' };
    const sentAt = new Date(t!.clock.now()).toISOString();
    expect(log).toEqual([
      { eventId: expect.stringMatching(/^evt_[0-9a-f]{32}$/), attempt: 1, type: 'session-change', sessionId: id, url: receiver.url, sentAt, outcome: 'failed', status: 503, payload },
      { eventId: log[0]!.eventId, attempt: 2, type: 'session-change', sessionId: id, url: receiver.url, sentAt, outcome: 'delivered', status: 200, payload },
    ]);
    expect(JSON.stringify(log)).not.toContain(callbackKeyA);
    // The receiver gets the real key; a company without one gets an empty key.
    expect(receiver.hits[1]!.body.callbackApiKey).toBe(callbackKeyA);
    const { id: other } = await t!.b.begin({});
    await t!.controlB.completeSession({ sessionId: other, result: 'approved' });
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.at(-1)!.body).toEqual({ callbackApiKey: '', type: 'session-change', sessionId: other, result: 'APPROVED' });
    expect(await logOf(keyB)).toHaveLength(1);
    expect(await logOf()).toHaveLength(2);
  });

  it('gives each event its own ID, the same over its retries', async () => {
    const receiver = await startReceiver((hit, _index, res) => res.writeHead(receiver.hits.filter((h) => h.body.sessionId === hit.body.sessionId).length === 1 ? 503 : 200).end());
    await start(receiver.url);
    await finished();
    await finished();
    await t!.sandbox.dispatcher.idle();
    const log = await logOf();
    expect(log).toHaveLength(4);
    const sessions = [...new Set(log.map((entry) => entry.sessionId))];
    const ids = sessions.map((session) => new Set(log.filter((entry) => entry.sessionId === session).map((entry) => entry.eventId)));
    expect(ids.map((set) => set.size)).toEqual([1, 1]);
    expect(new Set(ids.flatMap((set) => [...set])).size).toBe(2);
  });
});

describe('the back-off between attempts', () => {
  it('waits a random time below base × 2^(attempt − 1), capped at the maximum, before each retry', async () => {
    const receiver = await startReceiver(status(503));
    const policy = { maxAttempts: 10, baseDelayMs: 10, maxDelayMs: 80, timeoutMs: 60_000 };
    await start(receiver.url, policy);
    // Only the retry timers run on fake time; HTTP and the checks below run on real I/O.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await finishedInProcess();
    const delays: number[] = [];
    for (let attempt = 1; attempt < policy.maxAttempts; attempt++) {
      await until(async () => {
        const log = await logOf();
        return log.length === attempt && log.every((entry) => entry.outcome === 'failed') && vi.getTimerCount() === 1;
      }, `attempt ${attempt} to fail and its retry to wait`);
      const before = Date.now();
      vi.advanceTimersToNextTimer();
      delays.push(Date.now() - before);
    }
    await until(async () => {
      const log = await logOf();
      return log.length === policy.maxAttempts && log.every((entry) => entry.outcome === 'failed') && vi.getTimerCount() <= 1;
    }, 'the last attempt to fail');
    vi.runAllTimers();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits).toHaveLength(policy.maxAttempts);
    const caps = [10, 20, 40, 80, 80, 80, 80, 80, 80];
    expect(delays).toHaveLength(caps.length);
    delays.forEach((delay, i) => {
      expect(Number.isInteger(delay), `delay ${i + 1}`).toBe(true);
      expect(delay, `delay ${i + 1}`).toBeGreaterThanOrEqual(0);
      expect(delay, `delay ${i + 1}`).toBeLessThan(caps[i]!);
    });
    // Jitter, not a fixed delay; and later delays reach past the base (the seeded sandbox draws the same).
    expect(new Set(delays).size).toBeGreaterThan(3);
    expect(Math.max(...delays.slice(3))).toBeGreaterThanOrEqual(20);
  });
});

describe('an attempt\'s timeout', () => {
  it('ends an attempt whose answer trickles on past it, and the next attempt delivers', async () => {
    let trickle: NodeJS.Timeout | undefined;
    let sentWhenCut: number | undefined;
    const receiver = await startReceiver((_hit, index, res) => {
      if (index > 0) return void res.writeHead(200).end();
      // Headers at once, then a byte every 20 ms for 6 s: the connection is never idle for the 1 s timeout.
      res.writeHead(200, { 'content-type': 'text/plain' });
      let sent = 0;
      res.on('close', () => (sentWhenCut = sent));
      trickle = setInterval(() => (++sent > 300 || res.destroyed ? clearInterval(trickle) : res.write('.')), 20);
    });
    await start(receiver.url, { ...fast, timeoutMs: 1_000 });
    await finished();
    await t!.sandbox.dispatcher.idle();
    clearInterval(trickle);
    expect((await logOf()).map((entry) => [entry.attempt, entry.outcome, entry.status])).toEqual([
      [1, 'failed', null],
      [2, 'delivered', 200],
    ]);
    // The sandbox hung up while the answer was still coming (no timed bound: the machine may be loaded).
    expect(sentWhenCut).toBeLessThan(300);
  });
});

describe('order', () => {
  it('one session\'s events arrive in the order they happened, the next waiting for the one before through its retries', async () => {
    const failuresOf = new Map<string, number>();
    const receiver = await startReceiver((hit, _index, res) => {
      const key = `${hit.body.sessionId}/${hit.body.result}`;
      const failures = failuresOf.get(key) ?? 0;
      // The first event of each session fails twice.
      const fail = hit.body.result === 'ADDITIONAL_INFORMATION_REQUESTED' && failures < 2;
      failuresOf.set(key, failures + 1);
      res.writeHead(fail ? 503 : 200).end();
    });
    await start(receiver.url);
    const { id } = await t!.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t!.control.requestAdditionalInformation({ sessionId: id });
    await t!.control.completeSession({ sessionId: id, result: 'approved' });
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.result)).toEqual(['ADDITIONAL_INFORMATION_REQUESTED', 'ADDITIONAL_INFORMATION_REQUESTED', 'ADDITIONAL_INFORMATION_REQUESTED', 'APPROVED']);
  });

  it('the next event of a session goes out after the one before is given up', async () => {
    const receiver = await startReceiver((hit, _index, res) => res.writeHead(hit.body.result === 'ADDITIONAL_INFORMATION_REQUESTED' ? 500 : 200).end());
    await start(receiver.url, { ...fast, maxAttempts: 2 });
    const { id } = await t!.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t!.control.requestAdditionalInformation({ sessionId: id });
    await t!.control.completeSession({ sessionId: id, result: 'rejected' });
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.result)).toEqual(['ADDITIONAL_INFORMATION_REQUESTED', 'ADDITIONAL_INFORMATION_REQUESTED', 'REJECTED']);
  });

  it('the next event of a session does not wait a back-off after the one before had its last attempt', async () => {
    const receiver = await startReceiver((hit, _index, res) => res.writeHead(hit.body.result === 'ADDITIONAL_INFORMATION_REQUESTED' ? 500 : 200).end());
    // One attempt only, and a back-off of up to an hour that a retry would wait: nothing should wait it.
    await start(receiver.url, { ...fast, maxAttempts: 1, baseDelayMs: 3_600_000, maxDelayMs: 3_600_000 });
    const { id } = await t!.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t!.control.requestAdditionalInformation({ sessionId: id });
    await t!.control.completeSession({ sessionId: id, result: 'rejected' });
    await until(() => receiver.hits.length === 2, 'the next event to arrive', 3_000);
    expect(receiver.hits.map((hit) => hit.body.result)).toEqual(['ADDITIONAL_INFORMATION_REQUESTED', 'REJECTED']);
  });

  it('other sessions and companies do not wait for a session whose receiver is slow to answer', async () => {
    let first: ServerResponse | undefined;
    const receiver = await startReceiver((_hit, index, res) => {
      if (index === 0) first = res; // answered below, once the others are in
      else res.writeHead(200).end();
    });
    await start(receiver.url, { ...fast, timeoutMs: 10_000 });
    const slow = await finished();
    await until(() => receiver.hits.length === 1, 'the first event');
    const other = await finished();
    const { id: ofB } = await t!.b.begin({});
    await t!.controlB.completeSession({ sessionId: ofB, result: 'approved' });
    await until(() => receiver.hits.length === 3, 'the other events');
    first!.writeHead(200).end();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => hit.body.sessionId)).toEqual([slow, other, ofB]);
  });
});

describe('connections to one receiver', () => {
  it('are at most maxConnectionsPerReceiver at once; the other deliveries wait their turn and all arrive', async () => {
    const receiver = await startReceiver((_hit, _index, res) => void setTimeout(() => res.writeHead(200).end(), 50));
    await start(receiver.url, fast, { maxConnectionsPerReceiver: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await finished());
    await t!.sandbox.dispatcher.idle();
    expect(receiver.most()).toBe(2);
    expect(receiver.hits.map((hit) => hit.body.sessionId).sort()).toEqual(ids.sort());
    expect((await logOf()).every((entry) => entry.outcome === 'delivered')).toBe(true);
    expect(t!.sandbox.dispatcher.inFlight()).toBe(0);
  });
});

describe('the bounds', () => {
  it('give up at once on an event over maxQueuedCallbacks, keep the latest maxCallbackLogEntries attempts, and free a place once an event is done', async () => {
    const held: ServerResponse[] = [];
    const receiver = await startReceiver((_hit, _index, res) => void held.push(res));
    await start(receiver.url, { ...fast, timeoutMs: 30_000 }, { maxQueuedCallbacks: 2, maxCallbackLogEntries: 3, maxConnectionsPerReceiver: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await finished());
    await until(() => held.length === 1, 'the first event to arrive');
    // The first is under way, the second waits its turn (not logged yet), the third and fourth are given up.
    const summary = async () => (await logOf()).map((entry) => [ids.indexOf(entry.sessionId), entry.attempt, entry.outcome, entry.status]);
    expect(await summary()).toEqual([
      [0, 1, 'pending', null],
      [2, 1, 'failed', null],
      [3, 1, 'failed', null],
    ]);
    ids.push(await finished());
    expect((await logOf()).at(-1)!.payload).toEqual({ callbackApiKey: '[redacted]', type: 'session-change', sessionId: ids[4], result: 'APPROVED' });
    expect(await summary()).toEqual([
      [2, 1, 'failed', null],
      [3, 1, 'failed', null],
      [4, 1, 'failed', null],
    ]);
    held.shift()!.writeHead(200).end();
    await until(() => held.length === 1, 'the second event to arrive');
    held.shift()!.writeHead(200).end();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => ids.indexOf(hit.body.sessionId))).toEqual([0, 1]);
    // Both done: two places are free again.
    ids.push(await finished());
    ids.push(await finished());
    await until(() => held.length === 1, 'the sixth event to arrive');
    held.shift()!.writeHead(200).end();
    await until(() => held.length === 1, 'the seventh event to arrive');
    held.shift()!.writeHead(200).end();
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.map((hit) => ids.indexOf(hit.body.sessionId))).toEqual([0, 1, 5, 6]);
    expect((await summary()).slice(-2)).toEqual([
      [5, 1, 'delivered', 200],
      [6, 1, 'delivered', 200],
    ]);
  });
});

describe('a reset', () => {
  it('of one company stops its retries and empties its log; the other company\'s go on', async () => {
    const receiver = await startReceiver(status(503));
    await start(receiver.url, { maxAttempts: 1_000, baseDelayMs: 2, maxDelayMs: 4, timeoutMs: 1_000 });
    await finished();
    const { id: ofB } = await t!.b.begin({});
    await t!.controlB.completeSession({ sessionId: ofB, result: 'approved' });
    const ofCompany = (key: string) => receiver.hits.filter((hit) => hit.body.callbackApiKey === key).length;
    await until(() => ofCompany(callbackKeyA) >= 3 && ofCompany('') >= 3, 'retries of both companies');
    await t!.control.reset();
    // An attempt under way may still arrive; while B's retries go on five more times, A's stop.
    let mark = ofCompany('');
    await until(() => ofCompany('') >= mark + 5, 'retries of company B');
    const ofA = ofCompany(callbackKeyA);
    mark = ofCompany('');
    await until(() => ofCompany('') >= mark + 5, 'more retries of company B');
    expect(ofCompany(callbackKeyA)).toBe(ofA);
    expect(await logOf()).toEqual([]);
    expect((await logOf(keyB)).length).toBeGreaterThan(0);

    await t!.control.reset({ adminToken });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const all = receiver.hits.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.hits.length).toBe(all);
    expect(await logOf(keyB)).toEqual([]);
    await t!.sandbox.dispatcher.idle();
  });

  it('of one company leaves new events of that company delivered as before', async () => {
    const receiver = await startReceiver(status(200));
    await start(receiver.url);
    await finished();
    await t!.sandbox.dispatcher.idle();
    await t!.control.reset();
    const id = await finished('manual-check');
    await t!.sandbox.dispatcher.idle();
    expect(receiver.hits.at(-1)!.body).toMatchObject({ sessionId: id, result: 'MANUAL_CHECK' });
    expect((await logOf()).map((entry) => [entry.sessionId, entry.outcome])).toEqual([[id, 'delivered']]);
  });
});
