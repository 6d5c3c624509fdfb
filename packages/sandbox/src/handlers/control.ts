import { matchingRecord } from '../blacklist-match.js';
import { refuse } from '../codes.js';
import type { Context, TypedHandlers } from '../context.js';
import { raisableCallbacks, payloadOf } from '../raisable-events.js';
import { personOf } from '../results.js';
import { applicantUrl, isExpired, moveTo, record, saveSession, sessionOf } from '../sessions.js';
import { blacklistMatchKeys, type Session } from '../state.js';

/**
 * Finishes a session as the applicant and the service would. A KYC person on the company's blacklist is
 * rejected whatever was asked, with a reason that names the record. An expired session cannot be
 * finished (our choice: `wrong-parameters`).
 */
export async function completeSession(context: Context, session: Session, result: 'approved' | 'rejected' | 'manual-check'): Promise<void> {
  if (isExpired(context, session)) refuse(context, 'wrong-parameters');
  record(context, session, 'PAGE_LOADED');
  let outcome = result;
  session.rejection = undefined;
  if (session.kind === 'kyc') {
    const person = personOf(session);
    const found = await Promise.all(blacklistMatchKeys(person).map((key) => context.state.blacklist.find(context.company.companyKey, 'match', key)));
    // One record can be found under several keys: each once, by ID (a persistent store returns copies).
    const candidates = new Map(found.flat().map((r) => [r.id, r]));
    const match = matchingRecord(person, [...candidates.values()]);
    if (match) {
      outcome = 'rejected';
      session.rejection = { value: 'BLACKLISTED', description: `The person matches blacklist record ${match.id}: ${match.reason}` };
    }
  }
  await moveTo(context, session, outcome);
}

export const controlHandlers: TypedHandlers = {
  async sandboxCompleteSession(context) {
    await completeSession(context, await sessionOf(context, context.body.sessionId), context.body.result);
    return { json: { result: true } };
  },
  sandboxListCallbacks: async (context) => ({ json: { result: await context.callbackAttempts() } }),
  async sandboxRequestAdditionalInformation(context) {
    await moveTo(context, await sessionOf(context, context.body.sessionId), 'additional-information-requested');
    return { json: { result: true } };
  },

  /**
   * The provider callbacks of Part 6, as the applicant or an operator would cause them: any callback of
   * the current description's webhooks (raisable-events.ts), so a new one needs no code here.
   */
  async sandboxRaiseEvent(context) {
    const { body } = context;
    const rule = raisableCallbacks().get(body.type) ?? refuse(context, 'wrong-parameters');
    const session = await sessionOf(context, body.sessionId);
    const { phoneNumber = '+995500000000', address = 'applicant@example.org', createdBy = 'usr_sandbox_operator', fields = {} } = body;
    const code = String(Math.floor(context.ids.random() * 1_000_000)).padStart(6, '0');
    const given: Record<string, unknown> = { phoneNumber, address, createdBy, ...fields };
    const { type: _type, sessionId: _sessionId, callbackApiKey: _key, ...values } = given;
    const payload = payloadOf(rule, { sessionId: session.id, sessionLink: applicantUrl(context, session.id), code, given: values });
    // What the request gave must still make a callback its schema accepts (the key is set at delivery).
    if (!rule.validate({ ...payload, callbackApiKey: 'cb_test_placeholder' })) refuse(context, 'wrong-parameters');
    record(context, session, 'EVENT_RAISED', { type: rule.type });
    await saveSession(context, session);
    context.emit({ ...payload, type: rule.type, sessionId: session.id });
    return { json: { result: true } };
  },
};
