import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminToken, codeOf, startTestSandbox } from '../sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

describe('begin', () => {
  it('creates a session with an applicant URL of the form {widget_url}/?session_token=<id>', async () => {
    const { id, url, additionalSessionId } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    expect(id).toMatch(/^sess_[0-9a-f]{32}$/);
    expect(url).toBe(`${t.url}/widget/?session_token=${id}`);
    expect(additionalSessionId).toBeUndefined();
  });

  it('on the legacy interface answers with the bare session ID', async () => {
    const id = await t.legacyA.begin({ config_id: 'cfg-kyc-standard-01', general: { sessionLifetime: '60' } });
    expect(id).toMatch(/^sess_/);
    await expect(t.a.listSessionActivities({ sessionId: id })).resolves.toMatchObject({ result: [{ type: 'SESSION_CREATED' }] });
  });

  it('replaces configuration steps by key and overrides general for this session only', async () => {
    const { id } = await t.a.begin({
      configId: 'cfg-kyc-standard-01',
      steps: [{ type: 'liveness', key: 'liveness', flags: { maxLivenessAttempts: 1 } }, { type: 'user-questionnaire', key: 'extra' }],
      general: { language: 'ka' },
    });
    const session = (await t.sandbox.state.sessions.get('ck_test_company_a_0000', id))!;
    expect(session.steps.map((s) => s.key)).toEqual(['identity-document', 'liveness', 'documents', 'extra']);
    expect(session.steps[1]!.flags).toEqual({ maxLivenessAttempts: 1 });
    expect(session.general.language).toBe('ka');
    const { result: config } = await t.a.getSessionConfig({ sessionConfigId: 'cfg-kyc-standard-01' });
    expect(config.general?.language).toBe('en');
    expect(config.steps?.find((s) => s.key === 'liveness')?.flags).toEqual({ liveness: true, maxLivenessAttempts: 3 });
  });

  it('adds an additional session when the configuration asks for one', async () => {
    const { id, url, additionalSessionId, additionalSessionUrl } = await t.a.begin({ configId: 'cfg-kyc-additional-info' });
    expect(additionalSessionId).toMatch(/^sess_/);
    expect(additionalSessionId).not.toBe(id);
    expect(url).toBe(additionalSessionUrl);
    expect(additionalSessionUrl).toBe(`${t.url}/widget/?session_token=${additionalSessionId}`);
  });

  it('with sessionId creates a child with a fresh URL and leaves the parent as it was', async () => {
    const { id: parentId } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    const before = structuredClone(await t.sandbox.state.sessions.get('ck_test_company_a_0000', parentId));
    const { id, additionalSessionId, url } = await t.a.begin({ sessionId: parentId });
    expect(id).toBe(parentId);
    expect(additionalSessionId).not.toBe(parentId);
    expect(url).toContain(additionalSessionId!);
    expect(await t.sandbox.state.sessions.get('ck_test_company_a_0000', parentId)).toEqual(before);
  });

  it('refuses an unknown configuration and another company\'s parent', async () => {
    expect(await codeOf(t.a.begin({ configId: 'no-such-config' }))).toBe('wrong-parameters');
    const { id } = await t.a.begin({});
    expect(await codeOf(t.b.begin({ sessionId: id }))).toBe('invalid-access');
    expect(await codeOf(t.a.begin({ general: { sessionLifetime: 'soon' } }))).toBe('wrong-parameters');
  });

  it('gives the same IDs for the same seed and requests', async () => {
    const first = await t.a.begin({});
    await t.control.reset({ adminToken });
    const again = await t.a.begin({});
    expect(again.id).toBe(first.id);
  });
});

describe('finishing and results', () => {
  it.each([
    ['approved', 'approved'],
    ['rejected', 'rejected'],
  ] as const)('a session finished as %s has a KYC result %s with consistent data', async (outcome, result) => {
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.control.completeSession({ sessionId: id, result: outcome });
    const kyc = await t.legacyA.getResult({ session_token: id });
    expect(kyc.result).toBe(result);
    expect(kyc.name).toBe(`${kyc.person?.first_name} ${kyc.person?.last_name}`);
    expect(kyc.id_card_front?.Document_Number_en_US).toBe(kyc.person?.document_number);
    if (outcome === 'rejected') expect(kyc.errors).toEqual(['LOW_SIMILARITY']);
    else expect(kyc.reject_reason).toEqual({ value: '', description: '' });
  });

  it('records activities and a statistical summary as the session is driven', async () => {
    const { id } = await t.a.begin({});
    t.clock.advance(90_000);
    await t.control.completeSession({ sessionId: id, result: 'manual-check' });
    const { result: activities } = await t.a.listSessionActivities({ sessionId: id });
    expect(activities.map((a) => a.type)).toEqual(['SESSION_CREATED', 'PAGE_LOADED', 'STATUS_CHANGED']);
    const { result: summary } = await t.a.getSessionStatisticalSummary({ sessionId: id });
    expect(summary).toMatchObject({ sessionTimeSpan: 90, scanDocumentAttempts: 1 });
    expect((await t.legacyA.getResult({ session_token: id })).result).toBeUndefined();
  });

  it('gives KYB sessions step results on /result', async () => {
    const { id } = await t.a.begin({ configId: 'cfg-kyb-standard-01' });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    const { result } = await t.a.getResult({ sessionId: id });
    expect(result.stepsResults.map((s) => [s.type, s.status])).toEqual([
      ['company', 'approved'],
      ['beneficiaries', 'approved'],
      ['kyb-review', 'approved'],
    ]);
  });

  it('marks a session as additional information requested', async () => {
    const { id } = await t.a.begin({});
    await t.control.requestAdditionalInformation({ sessionId: id });
    expect((await t.sandbox.state.sessions.get('ck_test_company_a_0000', id))!.status).toBe('additional-information-requested');
  });

  it('expires after sessionLifetime minutes: it can no longer be finished', async () => {
    const { id } = await t.a.begin({ general: { sessionLifetime: '30' } });
    t.clock.advance(30 * 60_000);
    expect(await codeOf(t.control.completeSession({ sessionId: id, result: 'approved' }))).toBe('wrong-parameters');
  });
});

describe('delete', () => {
  it('removes the session and its children for good', async () => {
    const { id } = await t.a.begin({});
    const { additionalSessionId } = await t.a.begin({ sessionId: id });
    await expect(t.a.deleteSession({ sessionId: id })).resolves.toEqual({ result: true });
    expect(await codeOf(t.legacyA.getResult({ session_token: id }))).toBe('session-not-found');
    expect(await codeOf(t.legacyA.getResult({ session_token: additionalSessionId! }))).toBe('session-not-found');
    expect(await codeOf(t.legacyA.delete({ session_token: id }))).toBe('session-not-found');
  });

  it('on the legacy interface answers true', async () => {
    const id = await t.legacyA.begin({});
    await expect(t.legacyA.delete({ session_token: id })).resolves.toBe(true);
  });
});

describe('companies', () => {
  it('never see each other\'s sessions', async () => {
    const { id } = await t.a.begin({});
    expect(await codeOf(t.legacyB.getResult({ session_token: id }))).toBe('session-not-found');
    expect(await codeOf(t.b.listSessionActivities({ sessionId: id }))).toBe('invalid-access');
    expect(await codeOf(t.b.deleteSession({ sessionId: id }))).toBe('wrong-parameters');
    expect(await t.sandbox.state.sessions.get('ck_test_company_a_0000', id)).toBeDefined();
  });
});
