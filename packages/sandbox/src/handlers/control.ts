import { matchingRecord } from '../blacklist-match.js';
import { refuse } from '../codes.js';
import type { Context, TypedHandlers } from '../context.js';
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
  sandboxListCallbacks: (context) => ({ json: { result: context.callbackAttempts() } }),
  async sandboxRequestAdditionalInformation(context) {
    await moveTo(context, await sessionOf(context, context.body.sessionId), 'additional-information-requested');
    return { json: { result: true } };
  },

  /** The provider callbacks of Part 6, as the applicant or an operator would cause them. */
  async sandboxRaiseEvent(context) {
    const session = await sessionOf(context, context.body.sessionId);
    const { type, phoneNumber = '+995500000000', address = 'applicant@example.org', createdBy = 'usr_sandbox_operator' } = context.body;
    const code = String(Math.floor(context.ids.random() * 1_000_000)).padStart(6, '0');
    const sessionLink = applicantUrl(context, session.id);
    const fields: Record<string, Record<string, unknown>> = {
      'one-time-password-request': { text: `Your verification code is ${code}`, phoneNumber },
      'email-one-time-password-request': { address, subject: 'Your verification code', content: `Your verification code is ${code}` },
      'share-session-link-via-sms': { text: `Verify your identity: ${sessionLink}`, phoneNumber, sessionLink, createdBy },
      'share-session-link-via-email': { address, subject: 'Verify your identity', content: `Open ${sessionLink} to verify your identity.`, cc: [], sessionLink, createdBy },
    };
    record(context, session, 'EVENT_RAISED', { type });
    await saveSession(context, session);
    context.emit({ type, sessionId: session.id, ...fields[type] });
    return { json: { result: true } };
  },
};
