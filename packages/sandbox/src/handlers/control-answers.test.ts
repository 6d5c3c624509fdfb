// The control API's answers and their traces (openapi/sandbox): what each operation answers, the defaults
// a raised callback takes, the blacklist rejection's wording, and the activity a raised event leaves.
import { afterEach, describe, expect, it } from 'vitest';
import { demoCompanyA, receiveBodies } from '../callback-receiver.test-helper.js';
import { personFor } from '../persons.js';
import { startTestSandbox } from '../sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
let closeReceiver: (() => void) | undefined;
afterEach(async () => {
  await t?.close();
  closeReceiver?.();
  closeReceiver = undefined;
});

/** A sandbox whose company's callbacks land in `received`. */
async function withReceiver() {
  const { url, received, close } = await receiveBodies('/');
  closeReceiver = close;
  t = await startTestSandbox({ config: { companies: [demoCompanyA(url)] } });
  return received;
}

describe('answers', () => {
  it('complete-session, request-additional-information and raise-event answer {"result": true}', async () => {
    t = await startTestSandbox();
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    expect(await t.control.raiseEvent({ sessionId: id, type: 'one-time-password-request' })).toEqual({ result: true });
    expect(await t.control.requestAdditionalInformation({ sessionId: id })).toEqual({ result: true });
    expect(await t.control.completeSession({ sessionId: id, result: 'approved' })).toEqual({ result: true });
  });

  it('list-callbacks answers the company\'s attempts as a list, empty before any', async () => {
    t = await startTestSandbox();
    expect(await t.control.listCallbacks()).toEqual({ result: [] });
  });
});

describe('the blacklist rejection', () => {
  it('names the matching record and its reason', async () => {
    t = await startTestSandbox();
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    const person = (await t.legacyA.getResult({ session_token: id })).person!;
    const { result: record } = await t.a.addBlacklistRecord({ query: { reason: 'Known fraud', personalNumber: person.personal_number! } });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    const result = await t.legacyA.getResult({ session_token: id });
    expect(result.reject_reason).toEqual({ value: 'BLACKLISTED', description: `The person matches blacklist record ${record}: Known fraud` });
    expect(result.errors).toEqual(['BLACKLISTED']);
  });
});

describe('the blacklist check', () => {
  it('is for KYC sessions only: a KYB session keeps the result asked for', async () => {
    t = await startTestSandbox();
    const { id } = await t.a.begin({ configId: 'cfg-kyb-standard-01' });
    await t.a.addBlacklistRecord({ query: { reason: 'Known fraud', personalNumber: personFor(id).personalNumber } });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    const { result } = await t.a.getResult({ sessionId: id });
    expect(result.stepsResults?.map((step) => step.status)).toEqual(['approved', 'approved', 'approved']);
  });
});

describe('raise-event', () => {
  it('fills what the request leaves out with the documented defaults', async () => {
    const received = await withReceiver();
    const { id } = await t.a.begin({});
    await t.control.raiseEvent({ sessionId: id, type: 'share-session-link-via-sms' });
    await t.control.raiseEvent({ sessionId: id, type: 'share-session-link-via-email' });
    await t.sandbox.dispatcher.idle();
    expect(received[0]).toMatchObject({ type: 'share-session-link-via-sms', phoneNumber: '+995500000000', createdBy: 'usr_sandbox_operator' });
    expect(received[1]).toMatchObject({ type: 'share-session-link-via-email', address: 'applicant@example.org', createdBy: 'usr_sandbox_operator' });
  });

  it('sends a six-digit code that changes from one request to the next', async () => {
    const received = await withReceiver();
    const { id } = await t.a.begin({});
    for (let i = 0; i < 5; i++) await t.control.raiseEvent({ sessionId: id, type: 'one-time-password-request' });
    await t.sandbox.dispatcher.idle();
    const codes = received.map((event) => /code is (\d+)$/.exec(String(event.text))?.[1]);
    expect(codes.every((code) => /^\d{6}$/.test(code ?? ''))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1);
  });

  it('leaves an EVENT_RAISED activity naming the callback on the session', async () => {
    t = await startTestSandbox();
    const { id } = await t.a.begin({});
    await t.control.raiseEvent({ sessionId: id, type: 'email-one-time-password-request' });
    const { result } = await t.a.listSessionActivities({ sessionId: id });
    expect(result.at(-1)).toMatchObject({ type: 'EVENT_RAISED', data: { type: 'email-one-time-password-request' } });
  });
});
