// The control operations the console is built on (handlers/console-*.ts), answer by answer, as a script
// calling them sees them (openapi/sandbox/paths/list-sessions.yaml, get-session.yaml, expire-session.yaml,
// list-requests.yaml, get-request.yaml, list-rate-limit.yaml, unblock-address.yaml,
// resend-callback.yaml, get-callback-delivery.yaml).
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { keyA, useTestSandbox } from '../sandbox.test-helper.js';

const t = useTestSandbox();
const iso = (ms: number) => new Date(ms).toISOString();
const day = 24 * 60 * 60_000;
const invoke = (operationId: string, fields: Record<string, unknown>) => t.sandbox.sandbox.invoke(operationId, fields);

describe('a session as the console lists it', () => {
  it('gives every field: kind, status, configuration, name, links, times, expiry and the applicant page', async () => {
    const begun = t.sandbox.clock.now();
    const { id } = await t.sandbox.a.begin({ configId: 'cfg-kyc-standard-01', name: 'Console test' });
    const { result } = await t.sandbox.control.getSession({ sessionId: id });
    expect(result).toEqual({
      id,
      kind: 'kyc',
      status: 'created',
      configId: 'cfg-kyc-standard-01',
      name: 'Console test',
      parentId: null,
      childIds: [],
      createdAt: iso(begun),
      expiresAt: iso(begun + day),
      finishedAt: null,
      expired: false,
      applicantUrl: `${t.sandbox.url}/widget/?session_token=${id}`,
    });
    t.sandbox.clock.advance(5_000);
    await t.sandbox.control.completeSession({ sessionId: id, result: 'rejected' });
    expect((await t.sandbox.control.getSession({ sessionId: id })).result).toMatchObject({ status: 'rejected', finishedAt: iso(begun + 5_000), expired: false });
  });

  it('links a parent and its child both ways, and gives nulls for what a session was begun without', async () => {
    const parent = await t.sandbox.a.begin({ configId: 'cfg-kyc-additional-info' });
    const child = (await t.sandbox.control.getSession({ sessionId: parent.additionalSessionId! })).result;
    expect(child).toMatchObject({ parentId: parent.id, childIds: [] });
    expect((await t.sandbox.control.getSession({ sessionId: parent.id })).result.childIds).toEqual([parent.additionalSessionId]);
    const bare = (await t.sandbox.control.getSession({ sessionId: (await t.sandbox.a.begin({})).id })).result;
    expect(bare).toMatchObject({ configId: null, name: null, parentId: null });
  });

  it('lists the newest sessions first, as many as the limit asks, 100 by default', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await t.sandbox.a.begin({})).id);
    expect((await t.sandbox.control.listSessions({ limit: 2 })).result.map((s) => s.id)).toEqual([ids[2], ids[1]]);
    expect((await t.sandbox.control.listSessions({})).result.map((s) => s.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect((await t.sandbox.controlB.listSessions({})).result).toEqual([]);
  });

  it('expires a session now, keeps an earlier expiry, and records it among the activities', async () => {
    const { id } = await t.sandbox.a.begin({});
    t.sandbox.clock.advance(60_000);
    expect(await t.sandbox.control.expireSession({ sessionId: id })).toEqual({ result: true });
    const expired = (await t.sandbox.control.getSession({ sessionId: id })).result;
    expect(expired).toMatchObject({ expired: true, expiresAt: iso(t.sandbox.clock.now()) });
    t.sandbox.clock.advance(60_000);
    await t.sandbox.control.expireSession({ sessionId: id });
    expect((await t.sandbox.control.getSession({ sessionId: id })).result.expiresAt).toBe(expired.expiresAt);
    const activities = (await invoke('listSessionActivities', { companyKey: keyA, sessionId: id })).json as { result: { type: string }[] };
    expect(activities.result.map((a) => a.type).filter((type) => type === 'EXPIRED')).toEqual(['EXPIRED', 'EXPIRED']);
  });
});

describe('the request log operations', () => {
  it('give as many requests as the limit asks, newest first', async () => {
    const first = await t.sandbox.a.begin({});
    const second = await t.sandbox.a.begin({});
    const listed = (await t.sandbox.control.listRequests({ operation: 'begin', limit: 1 })).result;
    expect(listed.map((r) => r.sessionId)).toEqual([second.id]);
    expect((await t.sandbox.control.listRequests({ operation: 'begin' })).result.map((r) => r.sessionId)).toEqual([second.id, first.id]);
  });

  it('answer not-found for a request ID the log never held', async () => {
    expect(await invoke('sandboxGetRequest', { companyKey: keyA, requestId: 'req_nope' })).toEqual({ status: 400, json: { argumentError: 'not-found' } });
  });
});

describe('the rate-limit list', () => {
  it("gives the address's requests this minute and when its window began", async () => {
    const started = t.sandbox.clock.now();
    await t.sandbox.a.begin({});
    t.sandbox.clock.advance(1_000);
    await t.sandbox.a.begin({});
    const [entry] = (await t.sandbox.control.listRateLimit({})).result;
    expect(entry).toEqual({ ip: '127.0.0.1', requests: 2, windowStartedAt: iso(started), blockedUntil: null });
  });
});

describe('callback delivery', () => {
  it('is on until paused', async () => {
    expect((await t.sandbox.control.getCallbackDelivery({})).result).toEqual({ paused: false });
    expect(await t.sandbox.control.setCallbackDelivery({ paused: true })).toEqual({ result: true });
    expect((await t.sandbox.control.getCallbackDelivery({})).result).toEqual({ paused: true });
    expect((await t.sandbox.controlB.getCallbackDelivery({})).result).toEqual({ paused: false });
  });

  it('resends the event asked for, of several', async () => {
    const received: { sessionId: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk)).on('end', () => {
        received.push(JSON.parse(body));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t.sandbox.sandbox.companies.get(keyA)!.callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/cb`;
    try {
      const sessions: string[] = [];
      for (const result of ['approved', 'rejected'] as const) {
        const { id } = await t.sandbox.a.begin({});
        await t.sandbox.control.completeSession({ sessionId: id, result });
        await t.sandbox.sandbox.dispatcher.idle();
        sessions.push(id);
      }
      const attempts = (await t.sandbox.control.listCallbacks({})).result;
      const second = attempts.find((a) => a.sessionId === sessions[1])!;
      await t.sandbox.control.resendCallback({ eventId: second.eventId });
      await t.sandbox.sandbox.dispatcher.idle();
      expect(received.map((r) => r.sessionId)).toEqual([sessions[0], sessions[1], sessions[1]]);
    } finally {
      receiver.close();
    }
  });

  it('resends nothing once the company has no callback URL: not-found', async () => {
    const receiver = createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const company = t.sandbox.sandbox.companies.get(keyA)!;
    company.callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/cb`;
    try {
      const { id } = await t.sandbox.a.begin({});
      await t.sandbox.control.completeSession({ sessionId: id, result: 'approved' });
      await t.sandbox.sandbox.dispatcher.idle();
      const [attempt] = (await t.sandbox.control.listCallbacks({})).result;
      company.callbackUrl = undefined;
      expect(await invoke('sandboxResendCallback', { companyKey: keyA, eventId: attempt!.eventId })).toEqual({ status: 400, json: { argumentError: 'not-found' } });
      expect(await invoke('sandboxResendCallback', { companyKey: keyA, eventId: 'evt_nope' })).toEqual({ status: 400, json: { argumentError: 'not-found' } });
    } finally {
      receiver.close();
    }
  });
});

