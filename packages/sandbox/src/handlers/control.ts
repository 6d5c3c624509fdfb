import { matchingRecord } from '../blacklist-match.js';
import { refuse } from '../codes.js';
import type { Context, Handlers } from '../context.js';
import { personOf } from '../results.js';
import { isExpired, moveTo, record, sessionOf } from '../sessions.js';
import type { Session } from '../state.js';

/**
 * Finishes a session as the applicant and the service would. A KYC person on the company's blacklist is
 * rejected whatever was asked, with a reason that names the record. An expired session cannot be
 * finished (our choice: `wrong-parameters`).
 */
export function completeSession(context: Context, session: Session, result: 'approved' | 'rejected' | 'manual-check') {
  if (isExpired(context, session)) refuse(context, 'wrong-parameters');
  record(context, session, 'PAGE_LOADED');
  let outcome = result;
  session.rejection = undefined;
  if (session.kind === 'kyc') {
    const match = matchingRecord(personOf(session), context.state.blacklist.list(context.company.companyKey));
    if (match) {
      outcome = 'rejected';
      session.rejection = { value: 'BLACKLISTED', description: `The person matches blacklist record ${match.id}: ${match.reason}` };
    }
  }
  moveTo(context, session, outcome);
}

export const controlHandlers: Handlers = {
  sandboxCompleteSession(context) {
    completeSession(context, sessionOf(context, context.body.sessionId), context.body.result);
    return { json: { result: true } };
  },
  sandboxListCallbacks: (context) => ({ json: { result: context.callbackAttempts() } }),
  sandboxRequestAdditionalInformation(context) {
    moveTo(context, sessionOf(context, context.body.sessionId), 'additional-information-requested');
    return { json: { result: true } };
  },
};
