// Session media: the PDF export, the document face photo and visual markers (current interface), and the
// legacy `result/<media>/` endpoints that answer with the file's bytes. The files are made on demand by
// media/session-files.ts, the same bytes for the same session every time.
import { refuse } from '../codes.js';
import type { Context, FileReply, TypedHandlers } from '../context.js';
import { toDataUri } from '../media/data-uri.js';
import { solidJpeg } from '../media/jpeg.js';
import { makePdf, type PdfSection } from '../media/pdf.js';
import { solidPng } from '../media/png.js';
import { filesTime, hasKycMedia, livenessVideo, sessionImage, visualMarkers, type SessionImage } from '../media/session-files.js';
import { makeTar } from '../media/tar.js';
import { personOf, kybResult, kycResult } from '../results.js';
import { sessionOf } from '../sessions.js';
import type { Session } from '../state.js';

const iso = (ms: number | undefined) => (ms === undefined ? 'not yet' : new Date(ms).toISOString());
const yesNo = (value: unknown) => (value === true ? 'yes' : 'no');

function sessionSection(context: Context, session: Session): PdfSection {
  const lines = [
    `Session ID: ${session.id}`,
    `Type: ${session.kind.toUpperCase()}`,
    `Status: ${session.status}`,
    `Configuration: ${session.configId ?? 'custom steps'}`,
    ...(session.name ? [`Name: ${session.name}`] : []),
    `Created: ${iso(session.createdAt)}`,
    `Finished: ${iso(session.finishedAt)}`,
    `Steps: ${session.steps.map((s) => `${s.key} (${s.type})`).join(', ')}`,
  ];
  if (session.kind === 'kyb') {
    lines.push('', ...kybResult(session).stepsResults.map((step) => `Step ${step.key}: ${step.status}`));
    return { title: 'Session', lines };
  }
  const result = kycResult(context, session);
  if ('person' in result && result.person) {
    const p = result.person;
    lines.push(
      '',
      `Result: ${result.result ?? 'waiting for a manual check'}`,
      ...(result.reject_reason?.value ? [`Reject reason: ${result.reject_reason.value}: ${result.reject_reason.description}`] : []),
      `Face similarity: ${result.similarity}`,
      `Liveness: ${result.live ? 'live' : 'not live'}`,
      '',
      `Person: ${p.first_name} ${p.last_name}`,
      `Sex: ${p.sex}`,
      `Date of birth: ${p.birthday} (age ${p.age})`,
      `Place of birth: ${p.birth_place}`,
      `Nationality: ${p.nationality}`,
      `Personal number: ${p.personal_number}`,
      `Document: ${result.document_type} ${p.document_number}, issued ${p.document_issued}, expires ${p.document_expires}`,
      `Fields: ${p.status}`,
    );
  } else lines.push('', `Result: ${result.result_comment}`);
  if (session.videoCall) lines.push('', `Video call room ${session.videoCall.roomId}: ${session.videoCall.roomStatus}`);
  return { title: 'Session', lines };
}

/** Our choice: the sandbox runs no screening inside sessions, so this page gives the session's settings. */
function screeningSection(session: Session): PdfSection {
  const g = session.general;
  return {
    title: 'Screening',
    lines: [
      `Session ID: ${session.id}`,
      `Screening asked for: ${yesNo(g.checkScreening)}`,
      ...(g.minScreeningScore !== undefined ? [`Minimum score: ${String(g.minScreeningScore)}`] : []),
      ...(Array.isArray(g.screeningDatasets) ? [`Datasets: ${g.screeningDatasets.join(', ')}`] : []),
      'Matches: none recorded for this session in the sandbox.',
    ],
  };
}

async function proofOfAddressSection(context: Context, session: Session): Promise<PdfSection> {
  const files = await context.state.files.find(context.company.companyKey, 'session', session.id);
  return {
    title: 'Proof of address',
    lines: [
      `Session ID: ${session.id}`,
      ...(hasKycMedia(session) ? [`Address on the document: ${personOf(session).address}`] : []),
      files.length ? 'Attached files:' : 'Attached files: none.',
      ...files.map((f) => `- ${f.id}: ${f.contentType}, ${f.bytes.length} bytes, step ${f.stepKey}, question ${f.questionKey}, uploaded ${f.uploadedAt}`),
    ],
  };
}

/** A legacy media endpoint: the session's file as bytes, or session-not-found. */
/** The legacy media operations: each names its session by `session_token`. */
type LegacyMedia = 'legacyGetCardFront' | 'legacyGetCardBack' | 'legacyGetPassport' | 'legacyGetFace' | 'legacyGetFaceDocument' | 'legacyGetFaceVideo' | 'legacyGetGeneralDocument';

function legacyImage(what: SessionImage): (context: Context<LegacyMedia>) => Promise<FileReply> {
  return async (context) => {
    const session = await legacySessionWithMedia(context);
    return { bytes: sessionImage(session, what), contentType: 'image/jpeg' };
  };
}

/**
 * The session of a legacy media request, when it holds media. Our choice: a session that is not finished
 * (or a KYB session) gives `session-not-found` too, the only code the legacy media endpoints document.
 */
async function legacySessionWithMedia(context: Context<LegacyMedia>): Promise<Session> {
  const session = await sessionOf(context, context.body.session_token);
  if (!hasKycMedia(session)) refuse(context, 'session-not-found');
  return session;
}

/**
 * General documents by typeId (our choice of formats): statements and bills are PDFs, vehicle registration
 * certificates JPEG photos, the driver license a PNG scan, so a client meets each documented type.
 */
async function generalDocument(session: Session, typeId: string, at: number): Promise<{ bytes: Uint8Array; contentType: string }> {
  const label = `idv-sandbox general-document ${typeId} ${session.id}`;
  if (typeId === 'bank-statement' || typeId === 'utility-bill') {
    const person = personOf(session);
    const title = typeId === 'bank-statement' ? 'Bank statement' : 'Utility bill';
    const bytes = await makePdf(title, [{ title, lines: [`Holder: ${person.firstName} ${person.lastName}`, `Address: ${person.address}`, `Session ID: ${session.id}`, 'Sample document made by the IDV sandbox.'] }], at);
    return { bytes, contentType: 'application/pdf' };
  }
  if (typeId === 'drivers-license') return { bytes: solidPng(320, 200, label), contentType: 'image/png' };
  return { bytes: solidJpeg(320, 200, label), contentType: 'image/jpeg' };
}

export const mediaHandlers: TypedHandlers = {
  async exportSessionAsPdf(context) {
    const { body } = context;
    const session = await sessionOf(context, body.sessionId);
    if (body.exportSession !== true && body.exportScreening !== true && body.exportProofOfAddress !== true) refuse(context, 'wrong-parameters');
    const sections = [
      ...(body.exportSession === true ? [sessionSection(context, session)] : []),
      ...(body.exportScreening === true ? [screeningSection(session)] : []),
      ...(body.exportProofOfAddress === true ? [await proofOfAddressSection(context, session)] : []),
    ];
    // Stamped with the time of the session's last change, so that exporting twice gives the same bytes.
    const pdf = await makePdf(`Session ${session.id}`, sections, filesTime(session), context.limits);
    return { json: { result: toDataUri('application/pdf', pdf) } };
  },

  async getSessionMainDocumentFacePhoto(context) {
    const session = await sessionOf(context, context.body.sessionId);
    if (!hasKycMedia(session)) refuse(context, 'face-photo-not-found');
    return { json: { result: toDataUri('image/jpeg', sessionImage(session, 'document-face-photo')) } };
  },

  async getVisualMarkers(context) {
    const session = await sessionOf(context, context.body.sessionId);
    if (!hasKycMedia(session)) refuse(context, 'not-found');
    return { json: { result: toDataUri('application/x-tar', makeTar(visualMarkers(session), filesTime(session))) } };
  },

  legacyGetCardFront: legacyImage('card-front'),
  legacyGetCardBack: legacyImage('card-back'),
  legacyGetPassport: legacyImage('passport'),
  legacyGetFace: legacyImage('face'),
  legacyGetFaceDocument: legacyImage('face-document'),
  async legacyGetFaceVideo(context) {
    return { bytes: livenessVideo(await legacySessionWithMedia(context)), contentType: 'video/mp4' };
  },
  async legacyGetGeneralDocument(context) {
    const session = await legacySessionWithMedia(context);
    return generalDocument(session, String(context.body.typeId), filesTime(session));
  },
};
