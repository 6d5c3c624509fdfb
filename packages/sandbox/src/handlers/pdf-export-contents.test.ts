// What an exported session PDF says (exportSessionAsPdf: the session, screening and proof-of-address
// sections a client asks for), line by line, for each kind of session.
import { describe, expect, it } from 'vitest';
import { toDataUri } from '../media/data-uri.js';
import { solidPng } from '../media/png.js';
import { useTestSandbox } from '../sandbox.test-helper.js';
import { dataUriBytes, pdfText } from './files.test-helper.js';

const shared = useTestSandbox();
const t = () => shared.sandbox;
const created = '2026-01-01T00:00:00.000Z'; // the test sandbox's clock

async function exported(sessionId: string, sections: { exportSession?: boolean; exportScreening?: boolean; exportProofOfAddress?: boolean }) {
  const { result } = await t().a.exportSessionAsPdf({ sessionId, ...sections } as never);
  return pdfText(dataUriBytes(result, 'application/pdf')).split('\n');
}

/** The person lines of a finished KYC session, from its legacy result. */
async function personLines(id: string) {
  const result = await t().legacyA.getResult({ session_token: id });
  const p = result.person!;
  return [
    `Person: ${p.first_name} ${p.last_name}`,
    `Sex: ${p.sex}`,
    `Date of birth: ${p.birthday} (age ${p.age})`,
    `Place of birth: ${p.birth_place}`,
    `Nationality: ${p.nationality}`,
    `Personal number: ${p.personal_number}`,
    `Document: id ${p.document_number}, issued ${p.document_issued}, expires ${p.document_expires}`,
    'Fields: FIELDS_MATCH',
  ];
}

describe('the session section', () => {
  it('of a rejected KYC session: its data, the result with the reason, the similarity and the person', async () => {
    const { id } = await t().a.begin({ configId: 'cfg-kyc-standard-01', name: 'Export test' });
    await t().control.completeSession({ sessionId: id, result: 'rejected' });
    expect(await exported(id, { exportSession: true })).toEqual([
      'Session',
      `Session ID: ${id}`,
      'Type: KYC',
      'Status: rejected',
      'Configuration: cfg-kyc-standard-01',
      'Name: Export test',
      `Created: ${created}`,
      `Finished: ${created}`,
      'Steps: identity-document (identity-document), liveness (liveness), documents (user-questionnaire)',
      '',
      'Result: rejected',
      'Reject reason: LOW_SIMILARITY: The face does not match the document photo',
      'Face similarity: 0.41',
      'Liveness: live',
      '',
      ...(await personLines(id)),
    ]);
  });

  it('of an approved session: no reject reason; of one waiting for a manual check: says so', async () => {
    const { id } = await t().a.begin({ configId: 'cfg-kyc-standard-01' });
    await t().control.completeSession({ sessionId: id, result: 'approved' });
    const approved = await exported(id, { exportSession: true });
    expect(approved.slice(8, 13)).toEqual(['', 'Result: approved', 'Face similarity: 0.93', 'Liveness: live', '']);
    expect(approved.some((line) => line.startsWith('Name:') || line.startsWith('Reject reason'))).toBe(false);
    const { id: waiting } = await t().a.begin({ configId: 'cfg-kyc-standard-01' });
    await t().control.completeSession({ sessionId: waiting, result: 'manual-check' });
    expect(await exported(waiting, { exportSession: true })).toContain('Result: waiting for a manual check');
  });

  it('of an unfinished session with its own steps: not finished, custom steps, and the comment', async () => {
    const { id } = await t().a.begin({});
    expect(await exported(id, { exportSession: true })).toEqual([
      'Session',
      `Session ID: ${id}`,
      'Type: KYC',
      'Status: created',
      'Configuration: custom steps',
      `Created: ${created}`,
      'Finished: not yet',
      'Steps: identity-document (identity-document), liveness (liveness)',
      '',
      'Result: The applicant has not finished the session',
    ]);
  });

  it('of a KYB session: each step with its status', async () => {
    const { id } = await t().a.begin({ configId: 'cfg-kyb-standard-01' });
    await t().control.completeSession({ sessionId: id, result: 'manual-check' });
    expect((await exported(id, { exportSession: true })).slice(1)).toEqual([
      `Session ID: ${id}`,
      'Type: KYB',
      'Status: manual-check',
      'Configuration: cfg-kyb-standard-01',
      `Created: ${created}`,
      `Finished: ${created}`,
      'Steps: company (company), beneficiaries (beneficiaries), kyb-review (kyb-review)',
      '',
      'Step company: manual-check',
      'Step beneficiaries: manual-check',
      'Step kyb-review: manual-check',
    ]);
  });

  it('of a session with a video call: the room and its status', async () => {
    const { id } = await t().a.begin({ configId: 'cfg-kyc-video-call' });
    const [call] = (await t().legacyA.getResult({ session_token: id })).videoCallStatus!;
    expect((await exported(id, { exportSession: true })).slice(-2)).toEqual(['', `Video call room ${call!.roomId}: ${call!.roomStatus}`]);
  });
});

describe('the screening section', () => {
  it("gives the session's screening settings", async () => {
    const { id } = await t().a.begin({ configId: 'cfg-kyc-standard-01', general: { checkScreening: true, minScreeningScore: '80', screeningDatasets: ['sanctions', 'peps'] } });
    expect(await exported(id, { exportScreening: true })).toEqual(['Screening', `Session ID: ${id}`, 'Screening asked for: yes', 'Minimum score: 80', 'Datasets: sanctions, peps', 'Matches: none recorded for this session in the sandbox.']);
  });

  it('says no screening was asked for, without a score or datasets line, when none was', async () => {
    const { id } = await t().a.begin({});
    expect(await exported(id, { exportScreening: true })).toEqual(['Screening', `Session ID: ${id}`, 'Screening asked for: no', 'Matches: none recorded for this session in the sandbox.']);
  });
});

describe('the proof-of-address section', () => {
  it("of a finished session: the document's address and each attached file", async () => {
    const { id } = await t().a.begin({ configId: 'cfg-kyc-standard-01' });
    const png = solidPng(2, 2, 'x');
    const { result: fileId } = await t().a.uploadFile({ sessionId: id, stepKey: 'documents', questionKey: 'proof-of-address', content: toDataUri('image/png', png) });
    await t().control.completeSession({ sessionId: id, result: 'approved' });
    const address = (await t().legacyA.getResult({ session_token: id })).person!.address;
    const lines = await exported(id, { exportProofOfAddress: true });
    // pdf-lib wraps the long file line: joined again for the check.
    expect([...lines.slice(0, 4), lines.slice(4).join(' ')]).toEqual([
      'Proof of address',
      `Session ID: ${id}`,
      `Address on the document: ${address}`,
      'Attached files:',
      `- ${fileId}: image/png, ${png.length} bytes, step documents, question proof-of-address, uploaded ${created}`,
    ]);
  });

  it('of an unfinished session without files: no address, and none attached', async () => {
    const { id } = await t().a.begin({});
    expect(await exported(id, { exportProofOfAddress: true })).toEqual(['Proof of address', `Session ID: ${id}`, 'Attached files: none.']);
  });
});
