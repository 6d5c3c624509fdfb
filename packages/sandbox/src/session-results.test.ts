// A session's result data on its own (README "Results"; the reference's Part 2.6 KYC result, 2.7 KYB result,
// 2.9 statistical summary): what each status shows and hides, the same person everywhere.
import { describe, expect, it } from 'vitest';
import type { Context } from './context.js';
import { cardFields, personObject } from './persons.js';
import { kybResult, kycResult, personOf, statisticalSummary, videoCallStatus } from './results.js';
import type { Session } from './state.js';

const created = Date.parse('2026-11-23T10:00:00Z');
const finished = created + 95_400; // 95.4 s later
const clockAt = (now: number) => ({ clock: { now: () => now } }) as unknown as Context;
const session = (fields: Partial<Session> = {}): Session => ({ id: 'sess_0123', kind: 'kyc', steps: [], general: {}, flags: {}, createdAt: created, expiresAt: created + 86_400_000, status: 'created', activities: [], storedBytes: 0, ...fields });
const technicalDetails = { remoteAddress: '127.0.0.1', userAgent: 'IDV sandbox applicant page', countryCode: 'GE' };
const call = { roomId: 'room-1', roomStatus: 'ended', compositionStatus: 'available', videoFileStatus: 'available', videoFileId: 'vid-1' } as const;

describe('kycResult', () => {
  it('of an unfinished session: technical details and a comment only', () => {
    expect(kycResult(clockAt(finished), session())).toEqual({ technicalDetails, result_comment: 'The applicant has not finished the session' });
    expect(kycResult(clockAt(finished), session({ status: 'additional-information-requested' }))).toEqual({ technicalDetails, result_comment: 'Additional information requested' });
    expect(kycResult(clockAt(finished), session({ videoCall: call }))).toEqual({ technicalDetails, videoCallStatus: [call], result_comment: 'The applicant has not finished the session' });
  });

  it('of an approved session: the person, both card sides dated when it finished, no reject reason', () => {
    const s = session({ status: 'approved', finishedAt: finished });
    const person = personOf(s);
    const result = kycResult(clockAt(finished + 10 * 365 * 86_400_000), s);
    expect(result).toEqual({
      technicalDetails,
      result: 'approved',
      similarity: 0.93,
      live: true,
      document_type: 'id',
      name: `${person.firstName} ${person.lastName}`,
      face_images: 1,
      reject_reason: { value: '', description: '' },
      result_comment: '',
      id_card_front: cardFields(person, 'front', 'sess_0123-front', finished),
      id_card_back: cardFields(person, 'back', 'sess_0123-back', finished),
      person: personObject(person, finished),
      questionnaires: [],
      geolocation: [{ key: 'identity-document', latitude: 41.7151, longitude: 44.8271, address: 'Tbilisi, Georgia' }],
    });
  });

  it('of a session finished without a time: dated now', () => {
    const s = session({ status: 'approved' });
    expect(kycResult(clockAt(finished), s).person).toEqual(personObject(personOf(s), finished));
  });

  it('of a rejected session: a low similarity and its reason, or the reason the sandbox decided', () => {
    const low = kycResult(clockAt(finished), session({ status: 'rejected', finishedAt: finished }));
    expect(low).toMatchObject({ result: 'rejected', similarity: 0.41, reject_reason: { value: 'LOW_SIMILARITY', description: 'The face does not match the document photo' }, errors: ['LOW_SIMILARITY'], result_comment: '' });
    const rejection = { value: 'BLACKLISTED', description: 'The person matches blacklist record blk_1: r' };
    const listed = kycResult(clockAt(finished), session({ status: 'rejected', finishedAt: finished, rejection }));
    expect(listed).toMatchObject({ result: 'rejected', similarity: 0.93, reject_reason: rejection, errors: ['BLACKLISTED'] });
  });

  it('of a session waiting for a manual check: no result yet, and a comment', () => {
    const result = kycResult(clockAt(finished), session({ status: 'manual-check', finishedAt: finished }));
    expect(result).not.toHaveProperty('result');
    expect(result).not.toHaveProperty('errors');
    expect(result).toMatchObject({ similarity: 0.93, result_comment: 'Waiting for a manual check', reject_reason: { value: '', description: '' } });
  });

  it('carries the video call, when there is one, as a copy', () => {
    const s = session({ status: 'approved', finishedAt: finished, videoCall: { ...call } });
    const shown = kycResult(clockAt(finished), s).videoCallStatus!;
    expect(shown).toEqual([call]);
    shown[0]!.roomStatus = 'empty';
    expect(s.videoCall!.roomStatus).toBe('ended');
    expect(kycResult(clockAt(finished), session({ status: 'approved', finishedAt: finished }))).not.toHaveProperty('videoCallStatus');
    expect(videoCallStatus(session())).toBeUndefined();
  });
});

describe('kybResult', () => {
  const steps = [
    { key: 'c', type: 'company' },
    { key: 'b', type: 'beneficiaries' },
    { key: 'r', type: 'kyb-review' },
    { key: 'd', type: 'documents' },
  ] as Session['steps'];

  it('of an unfinished session: every step pending, with empty results and no trusted database', () => {
    expect(kybResult(session({ kind: 'kyb', steps }))).toEqual({
      technicalDetails,
      stepsResults: [
        { key: 'c', type: 'company', status: 'pending', result: {} },
        { key: 'b', type: 'beneficiaries', status: 'pending', result: [] },
        { key: 'r', type: 'kyb-review', status: 'pending' },
        { key: 'd', type: 'documents', status: 'pending', result: {} },
      ],
    });
  });

  it('of a finished session: each step with the status and its data', () => {
    expect(kybResult(session({ kind: 'kyb', steps, status: 'approved', finishedAt: finished }))).toEqual({
      technicalDetails,
      stepsResults: [
        { key: 'c', type: 'company', status: 'approved', result: { companyName: 'Northwind Sample Ltd', registrationNumber: '404551234', registrationCountry: 'GE', countryCode: 'GE', legalAddress: '12 Example Avenue, Tbilisi' } },
        { key: 'b', type: 'beneficiaries', status: 'approved', result: [{ entityType: 'individual', positions: ['shareholder', 'representative'], firstName: 'Jane', lastName: 'Sample', ownershipPercentage: '100', sessionIds: [], _id: 'sess_0123-ben-1' }] },
        { key: 'r', type: 'kyb-review', status: 'approved', trustedDatabase: { activityStatus: 'active', companyName: 'Northwind Sample Ltd', lastUpdateTimestamp: Math.floor(created / 1000) } },
        { key: 'd', type: 'documents', status: 'approved', result: {} },
      ],
    });
    expect(kybResult(session({ kind: 'kyb', steps, status: 'rejected' })).stepsResults.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
  });
});

describe('statisticalSummary', () => {
  it('of an unfinished session: its start, no time span, no scan', () => {
    expect(statisticalSummary(session())).toEqual({
      sessionStartDate: '2026-11-23T10:00:00.000Z',
      sessionTimeSpan: 0,
      scanDocumentAttempts: 0,
      scanDocumentFailReason: null,
      livenessFailReasons: null,
      sessionTerminationStep: null,
      sessionTerminationReasons: null,
    });
  });

  it('of a finished session: the seconds it took, the scan from the first page load to the end', () => {
    const s = session({ status: 'approved', finishedAt: finished, activities: [{ id: 'act_1', type: 'SESSION_CREATED', time: '2026-11-23T10:00:00.000Z', data: {} }, { id: 'act_2', type: 'PAGE_LOADED', time: '2026-11-23T10:00:30.000Z', data: {} }, { id: 'act_3', type: 'PAGE_LOADED', time: '2026-11-23T10:01:00.000Z', data: {} }] });
    const end = '2026-11-23T10:01:35.400Z';
    expect(statisticalSummary(s)).toEqual({
      sessionStartDate: '2026-11-23T10:00:00.000Z',
      sessionTimeSpan: 95,
      scanDocumentStartTime: '2026-11-23T10:00:30.000Z',
      scanDocumentEndTime: end,
      livenessStartTime: end,
      livenessEndTime: end,
      scanDocumentAttempts: 1,
      scanDocumentFailReason: null,
      livenessFailReasons: null,
      sessionTerminationStep: null,
      sessionTerminationReasons: null,
    });
    expect(statisticalSummary({ ...s, finishedAt: created + 95_600 }).sessionTimeSpan).toBe(96); // rounded
    expect(statisticalSummary({ ...s, activities: [] }).scanDocumentStartTime).toBe('2026-11-23T10:00:00.000Z'); // no page load: the start
  });

  it('of a rejected session: why it ended', () => {
    expect(statisticalSummary(session({ status: 'rejected', finishedAt: finished })).sessionTerminationReasons).toBe('LOW_SIMILARITY');
    expect(statisticalSummary(session({ status: 'rejected', finishedAt: finished, rejection: { value: 'BLACKLISTED', description: 'd' } })).sessionTerminationReasons).toBe('BLACKLISTED');
  });
});
