// Sessions as a company sees them over HTTP: another company's session is never read, changed or used as
// a parent (and the codes say which it is); each status change is booked (status, finish time, activity,
// callback); expiry at exactly the lifetime; steps merged by key; KYB told from KYC by its steps; a
// deletion takes the whole tree below a session and nothing else.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { demoSessionConfigs } from './companies.js';
import { callbackKeyA, codeOf, keyA, startTestSandbox } from './sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  receiver?.closeAllConnections();
  receiver?.close();
  receiver = undefined;
});

const start = async (options: Parameters<typeof startTestSandbox>[0] = {}) => (t = await startTestSandbox(options));
const standard = { configId: 'cfg-kyc-standard-01' };
const minute = 60_000;

/** A sandbox whose company A sends callbacks to a receiver that keeps their bodies. */
async function startWithCallbacks() {
  const bodies: Record<string, unknown>[] = [];
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(text));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;
  await start({ config: { companies: [{ companyKey: keyA, callbackUrl, callbackApiKey: callbackKeyA, sessionConfigs: demoSessionConfigs }, { companyKey: 'ck_test_company_b_0000' }] } });
  return bodies;
}

const activitiesOf = async (sessionId: string) => (await t!.a.listSessionActivities({ sessionId })).result.map((a) => ({ type: a.type, time: a.time, data: a.data }));
const at = (ms: number) => new Date(ms).toISOString();
/** The statistical summary (the spec allows a list too; the sandbox answers one object). */
const summaryOf = async (sessionId: string) => (await t!.a.getSessionStatisticalSummary({ sessionId })).result as { sessionStartDate?: string; sessionTimeSpan?: number; scanDocumentEndTime?: string; scanDocumentAttempts?: number };
const stepsOf = async (sessionId: string) => (await t!.a.getResult({ sessionId })).result.stepsResults.map((step) => `${step.type}:${step.key}`);

describe('another company\'s session', () => {
  it('is refused by every operation, with invalid-access where the operation documents it, and is left as it was', async () => {
    await start();
    const { id } = await t!.a.begin(standard);
    const unknown = `sess_${'0'.repeat(32)}`;
    const calls: [string, (sessionId: string) => Promise<unknown>, string, string][] = [
      ['listSessionActivities', (sessionId) => t!.b.listSessionActivities({ sessionId }), 'invalid-access', 'session-not-found'],
      ['getSessionStatisticalSummary', (sessionId) => t!.b.getSessionStatisticalSummary({ sessionId }), 'invalid-access', 'session-not-found'],
      ['getResult', (sessionId) => t!.b.getResult({ sessionId }), 'session-not-found', 'session-not-found'],
      ['legacy getResult', (session_token) => t!.legacyB.getResult({ session_token }), 'session-not-found', 'session-not-found'],
      ['deleteSession', (sessionId) => t!.b.deleteSession({ sessionId }), 'wrong-parameters', 'wrong-parameters'],
      ['legacy delete', (session_token) => t!.legacyB.delete({ session_token }), 'session-not-found', 'session-not-found'],
      ['begin with sessionId', (sessionId) => t!.b.begin({ sessionId }), 'invalid-access', 'invalid-access'],
      ['begin with parentSessionId', (parentSessionId) => t!.b.begin({ parentSessionId }), 'invalid-access', 'invalid-access'],
      ['completeSession', (sessionId) => t!.controlB.completeSession({ sessionId, result: 'approved' }), 'invalid-access', 'session-not-found'],
      ['requestAdditionalInformation', (sessionId) => t!.controlB.requestAdditionalInformation({ sessionId }), 'invalid-access', 'session-not-found'],
    ];
    const codes = [];
    for (const [name, call] of calls) codes.push([name, await codeOf(call(id)), await codeOf(call(unknown))]);
    expect(codes).toEqual(calls.map(([name, , ofOther, ofUnknown]) => [name, ofOther, ofUnknown]));

    expect(await activitiesOf(id)).toEqual([{ type: 'SESSION_CREATED', time: at(t!.clock.now()), data: { configId: 'cfg-kyc-standard-01' } }]);
    expect((await t!.legacyA.getResult({ session_token: id })).result_comment).toBe('The applicant has not finished the session');
  });
});

describe('a status change', () => {
  it('to a finished status sets the status, the finish time, a STATUS_CHANGED activity and the result', async () => {
    await start();
    const created = t!.clock.now();
    const { id } = await t!.a.begin(standard);
    expect(await summaryOf(id)).toMatchObject({ sessionTimeSpan: 0, scanDocumentAttempts: 0 });
    t!.clock.advance(90_000);
    await t!.control.completeSession({ sessionId: id, result: 'approved' });
    expect(await activitiesOf(id)).toEqual([
      { type: 'SESSION_CREATED', time: at(created), data: { configId: 'cfg-kyc-standard-01' } },
      { type: 'PAGE_LOADED', time: at(created + 90_000), data: {} },
      { type: 'STATUS_CHANGED', time: at(created + 90_000), data: { status: 'approved' } },
    ]);
    t!.clock.advance(30_000);
    const summary = await summaryOf(id);
    expect(summary).toMatchObject({ sessionStartDate: at(created), sessionTimeSpan: 90, scanDocumentEndTime: at(created + 90_000), scanDocumentAttempts: 1 });
    expect((await t!.legacyA.getResult({ session_token: id })).result).toBe('approved');
  });

  it('to additional information requested books the status and activity but no finish time', async () => {
    await start();
    const { id } = await t!.a.begin(standard);
    t!.clock.advance(60_000);
    await t!.control.requestAdditionalInformation({ sessionId: id });
    const activities = await activitiesOf(id);
    expect(activities.at(-1)).toEqual({ type: 'STATUS_CHANGED', time: at(t!.clock.now()), data: { status: 'additional-information-requested' } });
    const summary = await summaryOf(id);
    expect(summary.sessionTimeSpan).toBe(0);
    expect(summary.scanDocumentEndTime).toBeUndefined();
    expect((await t!.legacyA.getResult({ session_token: id })).result_comment).toBe('Additional information requested');
    // Finished later, it gets its finish time then.
    t!.clock.advance(60_000);
    await t!.control.completeSession({ sessionId: id, result: 'rejected' });
    expect((await summaryOf(id)).sessionTimeSpan).toBe(120);
    expect((await t!.legacyA.getResult({ session_token: id })).result).toBe('rejected');
  });

  it('sends a session-change callback with the result in capitals, and sessionType kyb for a KYB session only', async () => {
    const bodies = await startWithCallbacks();
    const sessions: string[] = [];
    for (const [config, change] of [
      ['cfg-kyc-standard-01', 'approved'],
      ['cfg-kyc-standard-01', 'rejected'],
      ['cfg-kyc-standard-01', 'manual-check'],
      ['cfg-kyc-standard-01', 'more'],
      ['cfg-kyb-standard-01', 'approved'],
    ] as const) {
      const { id } = await t!.a.begin({ configId: config });
      sessions.push(id);
      if (change === 'more') await t!.control.requestAdditionalInformation({ sessionId: id });
      else await t!.control.completeSession({ sessionId: id, result: change });
    }
    await t!.sandbox.dispatcher.idle();
    const of = (id: string) => bodies.find((body) => body.sessionId === id);
    const base = { callbackApiKey: callbackKeyA, type: 'session-change' };
    expect(sessions.map(of)).toEqual([
      { ...base, sessionId: sessions[0], result: 'APPROVED' },
      { ...base, sessionId: sessions[1], result: 'REJECTED' },
      { ...base, sessionId: sessions[2], result: 'MANUAL_CHECK' },
      { ...base, sessionId: sessions[3], result: 'ADDITIONAL_INFORMATION_REQUESTED' },
      { ...base, sessionId: sessions[4], result: 'APPROVED', sessionType: 'kyb' },
    ]);
  });

  it.each([['company'], ['beneficiaries'], ['kyb-review']])('a session with a %s step is KYB', async (type) => {
    const bodies = await startWithCallbacks();
    const { id } = await t!.a.begin({ steps: [{ type: 'liveness', key: 'live' }, { type, key: 'k' }] } as never);
    await t!.control.completeSession({ sessionId: id, result: 'approved' });
    const { id: kyc } = await t!.a.begin({ steps: [{ type: 'liveness', key: 'live' }, { type: 'user-questionnaire', key: type }] } as never);
    await t!.control.completeSession({ sessionId: kyc, result: 'approved' });
    await t!.sandbox.dispatcher.idle();
    expect(bodies.find((body) => body.sessionId === id)?.sessionType).toBe('kyb');
    expect(bodies.find((body) => body.sessionId === kyc)).not.toHaveProperty('sessionType');
  });
});

describe('expiry', () => {
  it('comes at exactly the lifetime: a millisecond before, the session can be finished; at it, not, and nothing changes', async () => {
    await start();
    const { id: early } = await t!.a.begin({ ...standard, general: { sessionLifetime: 30 } } as never);
    const { id: late } = await t!.a.begin({ ...standard, general: { sessionLifetime: 30 } } as never);
    t!.clock.advance(30 * minute - 1);
    expect(await codeOf(t!.control.completeSession({ sessionId: early, result: 'approved' }))).toBe('resolved');
    t!.clock.advance(1);
    expect(await codeOf(t!.control.completeSession({ sessionId: late, result: 'approved' }))).toBe('wrong-parameters');
    expect((await activitiesOf(late)).map((a) => a.type)).toEqual(['SESSION_CREATED']);
    expect((await t!.legacyA.getResult({ session_token: late })).result_comment).toBe('The applicant has not finished the session');
    const page = await (await fetch(`${t!.url}/widget/?session_token=${late}`)).text();
    expect(page).toContain('This session has expired.');
    expect(page).not.toContain('<form');
  });

  it.each([
    ['the configuration\'s lifetime', standard, 1440],
    ['a day when neither configuration nor request sets one', {}, 1440],
    ['the request\'s lifetime over the configuration\'s', { ...standard, general: { sessionLifetime: 5 } }, 5],
    ['a lifetime given as a numeric string', { general: { sessionLifetime: '45' } }, 45],
    ['the KYB configuration\'s week', { configId: 'cfg-kyb-standard-01' }, 10080],
  ])('follows %s', async (_name, input, minutes) => {
    await start();
    const { id } = await t!.a.begin(input as never);
    const { id: other } = await t!.a.begin(input as never);
    t!.clock.advance(minutes * minute - 1);
    expect(await codeOf(t!.control.completeSession({ sessionId: id, result: 'approved' }))).toBe('resolved');
    t!.clock.advance(1);
    expect(await codeOf(t!.control.completeSession({ sessionId: other, result: 'approved' }))).toBe('wrong-parameters');
  });

  it.each([['abc'], [''], ['  '], [0], [-5], ['Infinity'], [true], [null]])('refuses a lifetime of %j with wrong-parameters and stores nothing', async (sessionLifetime) => {
    await start();
    expect(await codeOf(t!.a.begin({ general: { sessionLifetime } } as never))).toBe('wrong-parameters');
    const { id } = await t!.a.begin({});
    // A refused begin draws no ID: the seeded sandbox gives the first ID it would have given.
    const fresh = await startTestSandbox();
    try {
      expect((await fresh.a.begin({})).id).toBe(id);
    } finally {
      await fresh.close();
    }
  });
});

describe('steps', () => {
  it('without configuration or steps are the default document and liveness steps', async () => {
    await start();
    const { id } = await t!.a.begin({});
    expect(await stepsOf(id)).toEqual(['identity-document:identity-document', 'liveness:liveness']);
  });

  it('of the request replace the configuration\'s of the same key, in place, and new keys come last; the configuration is unchanged', async () => {
    await start();
    const { id } = await t!.a.begin({ ...standard, steps: [{ type: 'company', key: 'extra' }, { type: 'selfie', key: 'liveness' }] } as never);
    expect(await stepsOf(id)).toEqual(['identity-document:identity-document', 'selfie:liveness', 'user-questionnaire:documents', 'company:extra']);
    const { id: plain } = await t!.a.begin(standard);
    expect(await stepsOf(plain)).toEqual(['identity-document:identity-document', 'liveness:liveness', 'user-questionnaire:documents']);
  });

  it('of a child session are its parent\'s, with the parent\'s lifetime', async () => {
    await start();
    const { id: parent } = await t!.a.begin({ ...standard, general: { sessionLifetime: 10 }, steps: [{ type: 'company', key: 'extra' }] } as never);
    const { id, additionalSessionId } = await t!.a.begin({ sessionId: parent });
    expect(id).toBe(parent);
    expect(await stepsOf(additionalSessionId!)).toEqual(await stepsOf(parent));
    t!.clock.advance(10 * minute);
    expect(await codeOf(t!.control.completeSession({ sessionId: additionalSessionId!, result: 'approved' }))).toBe('wrong-parameters');
  });

  it('with a video call give the session a room', async () => {
    await start();
    const { id } = await t!.a.begin({ configId: 'cfg-kyc-video-call' });
    const { id: plain } = await t!.a.begin(standard);
    expect((await t!.legacyA.getResult({ session_token: id })).videoCallStatus).toEqual([{ roomId: expect.stringMatching(/^room_/), roomStatus: 'created', compositionStatus: null, videoFileStatus: null, videoFileId: null }]);
    expect(await t!.legacyA.getResult({ session_token: plain })).not.toHaveProperty('videoCallStatus');
  });
});

describe('deleting a session', () => {
  it('deletes its children and their children, and no other session', async () => {
    await start();
    const { id: root } = await t!.a.begin(standard);
    const { additionalSessionId: child } = await t!.a.begin({ sessionId: root });
    const { additionalSessionId: grandchild } = await t!.a.begin({ sessionId: child! });
    const { id: sibling } = await t!.a.begin(standard);
    const { additionalSessionId: siblingChild } = await t!.a.begin({ sessionId: sibling });
    await t!.a.deleteSession({ sessionId: child! });
    for (const gone of [child!, grandchild!]) expect(await codeOf(t!.a.listSessionActivities({ sessionId: gone }))).toBe('session-not-found');
    for (const kept of [root, sibling, siblingChild!]) expect(await codeOf(t!.a.listSessionActivities({ sessionId: kept }))).toBe('resolved');
    await t!.a.deleteSession({ sessionId: root });
    expect(await codeOf(t!.a.listSessionActivities({ sessionId: root }))).toBe('session-not-found');
    expect(await codeOf(t!.a.listSessionActivities({ sessionId: siblingChild! }))).toBe('resolved');
  });
});

describe('a group', () => {
  it('of the company can hold a session; an unknown one or another company\'s is refused with wrong-parameters', async () => {
    await start();
    const groupId = (await t!.a.makeGroup({ name: 'Reviewers' })).result.id;
    expect(groupId).toMatch(/^grp_/);
    expect(await codeOf(t!.a.begin({ ...standard, groupId }))).toBe('resolved');
    expect(await codeOf(t!.b.begin({ groupId }))).toBe('wrong-parameters');
    expect(await codeOf(t!.a.begin({ groupId: 'grp_unknown' }))).toBe('wrong-parameters');
  });
});
