// Result data of finished sessions, deterministic from the session (the same session ID gives the same
// person and figures) and consistent with its status.
import type { KybSessionResult, KybStepResult, KycSessionResult, SessionStatisticalSummary, VideoCallStatusEntry } from '@idv-toolkit/types';
import type { Context } from './context.js';
import { cardFields, personFor, personObject, type SamplePerson } from './persons.js';
import type { Session } from './state.js';

const technicalDetails = { remoteAddress: '127.0.0.1', userAgent: 'IDV sandbox applicant page', countryCode: 'GE' };

export const personOf = (session: Session): SamplePerson => personFor(session.id);

export function videoCallStatus(session: Session): VideoCallStatusEntry[] | undefined {
  return session.videoCall ? [{ ...session.videoCall }] : undefined;
}

/** The KYC result of the legacy `result/` (Part 2.6). Fields the session has not produced yet are absent. */
export function kycResult(context: Context, session: Session): KycSessionResult {
  const base = { technicalDetails, ...(session.videoCall ? { videoCallStatus: videoCallStatus(session) } : {}) };
  if (session.status === 'created' || session.status === 'additional-information-requested') {
    return { ...base, result_comment: session.status === 'created' ? 'The applicant has not finished the session' : 'Additional information requested' };
  }
  const person = personOf(session);
  const now = session.finishedAt ?? context.clock.now();
  const rejected = session.status === 'rejected';
  const similarity = rejected && !session.rejection ? 0.41 : 0.93;
  return {
    ...base,
    ...(session.status === 'manual-check' ? {} : { result: rejected ? 'rejected' : 'approved' }),
    similarity,
    live: true,
    document_type: 'id',
    name: `${person.firstName} ${person.lastName}`,
    face_images: 1,
    reject_reason: rejected ? (session.rejection ?? { value: 'LOW_SIMILARITY', description: 'The face does not match the document photo' }) : { value: '', description: '' },
    result_comment: session.status === 'manual-check' ? 'Waiting for a manual check' : '',
    ...(rejected ? { errors: [session.rejection?.value ?? 'LOW_SIMILARITY'] } : {}),
    id_card_front: cardFields(person, 'front', `${session.id}-front`, now),
    id_card_back: cardFields(person, 'back', `${session.id}-back`, now),
    person: personObject(person, now),
    questionnaires: [],
    geolocation: [{ key: 'identity-document', latitude: 41.7151, longitude: 44.8271, address: 'Tbilisi, Georgia' }],
  };
}

const stepStatus = (session: Session) => (session.status === 'created' ? 'pending' : session.status);

/** The KYB result of the current `/result` (Part 2.7), step by step. */
export function kybResult(session: Session): KybSessionResult {
  const status = stepStatus(session);
  const finished = session.status !== 'created';
  const stepsResults = session.steps.map((step): KybStepResult => {
    if (step.type === 'company')
      return { key: step.key, type: 'company', status, result: finished ? { companyName: 'Northwind Sample Ltd', registrationNumber: '404551234', registrationCountry: 'GE', countryCode: 'GE', legalAddress: '12 Example Avenue, Tbilisi' } : {} };
    if (step.type === 'beneficiaries')
      return {
        key: step.key,
        type: 'beneficiaries',
        status,
        result: finished ? [{ entityType: 'individual', positions: ['shareholder', 'representative'], firstName: 'Jane', lastName: 'Sample', ownershipPercentage: '100', sessionIds: [], _id: `${session.id}-ben-1` }] : [],
      };
    if (step.type === 'kyb-review')
      return { key: step.key, type: 'kyb-review', status, ...(finished ? { trustedDatabase: { activityStatus: 'active', companyName: 'Northwind Sample Ltd', lastUpdateTimestamp: Math.floor(session.createdAt / 1000) } } : {}) };
    // Every step but kyb-review has a result (the reference); its shape for other types is not shown (our choice: empty).
    return { key: step.key, type: step.type, status, result: {} };
  });
  return { stepsResults, technicalDetails };
}

/** The statistical summary (Part 2.9), from what the session recorded. */
export function statisticalSummary(session: Session): SessionStatisticalSummary {
  const at = (type: string) => session.activities.find((a) => a.type === type)?.time;
  const start = new Date(session.createdAt).toISOString();
  const end = session.finishedAt ? new Date(session.finishedAt).toISOString() : undefined;
  return {
    sessionStartDate: start,
    sessionTimeSpan: Math.round(((session.finishedAt ?? session.createdAt) - session.createdAt) / 1000),
    ...(end ? { scanDocumentStartTime: at('PAGE_LOADED') ?? start, scanDocumentEndTime: end, livenessStartTime: end, livenessEndTime: end } : {}),
    scanDocumentAttempts: end ? 1 : 0,
    scanDocumentFailReason: null,
    livenessFailReasons: null,
    sessionTerminationStep: null,
    sessionTerminationReasons: session.status === 'rejected' ? (session.rejection?.value ?? 'LOW_SIMILARITY') : null,
  };
}
