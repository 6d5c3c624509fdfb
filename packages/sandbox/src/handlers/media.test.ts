import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jpegSize } from '../media/jpeg.js';
import { codeOf, keyA, startTestSandbox } from '../sandbox.test-helper.js';
import { topLevelBoxes } from '../media/mp4.js';
import { blobBytes, dataUriBytes, ftyp, jpegMagic, pdfMagic, pdfPageCount, pdfText, pngMagic, readTar, startsWith } from './files.test-helper.js';
import { documentsMediaType, responseProblems } from './responses.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

async function finished(result: 'approved' | 'rejected' | 'manual-check' = 'approved', configId = 'cfg-kyc-standard-01') {
  const { id } = await t.a.begin({ configId });
  await t.control.completeSession({ sessionId: id, result });
  return id;
}

describe('exportSessionAsPdf', () => {
  it('makes a real PDF with one page per section asked for', async () => {
    const id = await finished();
    const one = await t.a.exportSessionAsPdf({ sessionId: id, exportSession: true });
    expect(responseProblems('current', 'exportSessionAsPdf', one)).toEqual([]);
    const bytes = dataUriBytes(one.result, 'application/pdf');
    expect(startsWith(bytes, pdfMagic)).toBe(true);
    expect(await pdfPageCount(bytes)).toBe(1);
    const all = await t.a.exportSessionAsPdf({ sessionId: id, exportSession: true, exportScreening: true, exportProofOfAddress: true });
    expect(await pdfPageCount(dataUriBytes(all.result, 'application/pdf'))).toBe(3);
    const two = await t.a.exportSessionAsPdf({ sessionId: id, exportScreening: true, exportProofOfAddress: true, exportSession: false });
    expect(await pdfPageCount(dataUriBytes(two.result, 'application/pdf'))).toBe(2);
  });

  it('holds the session data and gives the same bytes for the same session', async () => {
    const id = await finished('rejected');
    const first = await t.a.exportSessionAsPdf({ sessionId: id, exportSession: true });
    t.clock.advance(60_000);
    const again = await t.a.exportSessionAsPdf({ sessionId: id, exportSession: true });
    expect(again.result).toBe(first.result);
    const text = pdfText(dataUriBytes(first.result, 'application/pdf'));
    expect(text).toContain(`Session ID: ${id}`);
    const kyc = await t.legacyA.getResult({ session_token: id });
    expect(text).toContain(`Person: ${kyc.person?.first_name} ${kyc.person?.last_name}`);
    expect(text).toContain('Result: rejected');
  });

  it('exports unfinished and KYB sessions too', async () => {
    const { id } = await t.a.begin({});
    const kyb = await finished('approved', 'cfg-kyb-standard-01');
    for (const sessionId of [id, kyb]) {
      const { result } = await t.a.exportSessionAsPdf({ sessionId, exportSession: true, exportProofOfAddress: true });
      expect(await pdfPageCount(dataUriBytes(result, 'application/pdf'))).toBe(2);
    }
  });

  it('refuses without a true export flag, and unknown or foreign sessions', async () => {
    const id = await finished();
    expect(await codeOf(t.a.exportSessionAsPdf({ sessionId: id } as never))).toBe('wrong-parameters');
    expect(await codeOf(t.a.exportSessionAsPdf({ sessionId: id, exportSession: false, exportScreening: false, exportProofOfAddress: false } as never))).toBe('wrong-parameters');
    expect(await codeOf(t.a.exportSessionAsPdf({ sessionId: 'sess_nope', exportSession: true }))).toBe('session-not-found');
    expect(await codeOf(t.b.exportSessionAsPdf({ sessionId: id, exportSession: true }))).toBe('invalid-access');
  });
});

describe('getSessionMainDocumentFacePhoto', () => {
  it('gives a JPEG data URI for a finished KYC session', async () => {
    const id = await finished('manual-check');
    const body = await t.a.getSessionMainDocumentFacePhoto({ sessionId: id });
    expect(responseProblems('current', 'getSessionMainDocumentFacePhoto', body)).toEqual([]);
    const bytes = dataUriBytes(body.result, 'image/jpeg');
    expect(startsWith(bytes, jpegMagic)).toBe(true);
    expect(jpegSize(bytes)!.width).toBeGreaterThanOrEqual(80);
    const other = await t.a.getSessionMainDocumentFacePhoto({ sessionId: await finished() });
    expect(other.result).not.toBe(body.result);
  });

  it('has no photo before the session is finished or for a KYB session', async () => {
    const { id } = await t.a.begin({});
    expect(await codeOf(t.a.getSessionMainDocumentFacePhoto({ sessionId: id }))).toBe('face-photo-not-found');
    await t.control.requestAdditionalInformation({ sessionId: id });
    expect(await codeOf(t.a.getSessionMainDocumentFacePhoto({ sessionId: id }))).toBe('face-photo-not-found');
    const kyb = await finished('approved', 'cfg-kyb-standard-01');
    expect(await codeOf(t.a.getSessionMainDocumentFacePhoto({ sessionId: kyb }))).toBe('face-photo-not-found');
  });

  it('refuses unknown and foreign sessions', async () => {
    const id = await finished();
    expect(await codeOf(t.a.getSessionMainDocumentFacePhoto({ sessionId: 'sess_nope' }))).toBe('session-not-found');
    expect(await codeOf(t.b.getSessionMainDocumentFacePhoto({ sessionId: id }))).toBe('invalid-access');
  });
});

describe('getVisualMarkers', () => {
  it('gives a real tar of JPEG markers for a finished session', async () => {
    const id = await finished();
    const body = await t.a.getVisualMarkers({ sessionId: id });
    expect(responseProblems('current', 'getVisualMarkers', body)).toEqual([]);
    const entries = await readTar(dataUriBytes(body.result, 'application/x-tar'));
    expect(entries.map((e) => e.name)).toEqual(['marker-01.jpg', 'marker-02.jpg', 'marker-03.jpg']);
    for (const entry of entries) {
      expect(entry.type).toBe('file');
      expect(startsWith(entry.bytes, jpegMagic)).toBe(true);
      expect(entry.mtime.getTime()).toBe(t.clock.now());
    }
    expect((await t.a.getVisualMarkers({ sessionId: id })).result).toBe(body.result);
  });

  it('refuses a session without markers, a bad request, unknown and foreign sessions', async () => {
    const { id } = await t.a.begin({});
    expect(await codeOf(t.a.getVisualMarkers({ sessionId: id }))).toBe('not-found');
    expect(await codeOf(t.a.getVisualMarkers({ sessionId: 42 } as never))).toBe('wrong-parameters');
    expect(await codeOf(t.a.getVisualMarkers({ sessionId: 'sess_nope' }))).toBe('session-not-found');
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    expect(await codeOf(t.b.getVisualMarkers({ sessionId: id }))).toBe('invalid-access');
  });
});

describe('legacy media', () => {
  const images = ['getCardFront', 'getCardBack', 'getPassport', 'getFace', 'getFaceDocument'] as const;

  it('answers with the bytes and content type of each file', async () => {
    const id = await finished();
    for (const name of images) {
      const blob = await t.legacyA[name]({ session_token: id });
      expect(blob.type).toBe('image/jpeg');
      expect(startsWith(await blobBytes(blob), jpegMagic)).toBe(true);
    }
    const video = await t.legacyA.getFaceVideo({ session_token: id });
    expect(video.type).toBe('video/mp4');
    expect(startsWith(await blobBytes(video), ftyp, 4)).toBe(true);
    // A playable file: its movie header and a non-empty media data box, not only the signature.
    expect(topLevelBoxes(await blobBytes(video))).toEqual(['ftyp', 'moov', 'free', 'mdat', 'free']);
    const front = await blobBytes(await t.legacyA.getCardFront({ session_token: id }));
    const back = await blobBytes(await t.legacyA.getCardBack({ session_token: id }));
    expect(Buffer.from(front).equals(back)).toBe(false);
  });

  it('gives each general document in a documented type, with matching bytes', async () => {
    const id = await finished('rejected');
    const magic: Record<string, number[]> = { 'application/pdf': pdfMagic, 'image/jpeg': jpegMagic, 'image/png': pngMagic };
    const typeIds = ['bank-statement', 'utility-bill', 'vehicle-registration-certificate-front', 'vehicle-registration-certificate-back', 'drivers-license'] as const;
    const seen = new Set<string>();
    for (const typeId of typeIds) {
      const blob = await t.legacyA.getGeneralDocument({ session_token: id, typeId });
      expect(documentsMediaType('legacy', 'legacyGetGeneralDocument', blob.type)).toBe(true);
      const bytes = await blobBytes(blob);
      expect(startsWith(bytes, magic[blob.type]!)).toBe(true);
      if (blob.type === 'application/pdf') expect(await pdfPageCount(bytes)).toBe(1);
      seen.add(blob.type);
    }
    expect(seen.size).toBe(3);
  });

  it('answers session-not-found for unknown, unfinished, KYB and foreign sessions, and a bad typeId', async () => {
    const id = await finished();
    const { id: open } = await t.a.begin({});
    const kyb = await finished('approved', 'cfg-kyb-standard-01');
    for (const name of [...images, 'getFaceVideo'] as const) {
      for (const token of ['sess_nope', open, kyb]) expect(await codeOf(t.legacyA[name]({ session_token: token }))).toBe('session-not-found');
      expect(await codeOf(t.legacyB[name]({ session_token: id }))).toBe('session-not-found');
    }
    expect(await codeOf(t.legacyB.getGeneralDocument({ session_token: id, typeId: 'utility-bill' }))).toBe('session-not-found');
    expect(await codeOf(t.legacyA.getGeneralDocument({ session_token: open, typeId: 'utility-bill' }))).toBe('session-not-found');
    expect(await codeOf(t.legacyA.getGeneralDocument({ session_token: id, typeId: 'passport' } as never))).toBe('session-not-found');
    expect((await t.sandbox.state.sessions.get(keyA, id))!.status).toBe('approved');
  });
});

describe('legacy media, what each file shows', () => {
  /** Width and height of a PNG, from its IHDR chunk. */
  const pngSize = (bytes: Uint8Array) => ({ width: Buffer.from(bytes).readUInt32BE(16), height: Buffer.from(bytes).readUInt32BE(20) });

  it('each image has the shape of its document: cards and face-document landscape, passport page, face portrait', async () => {
    const id = await finished();
    const size = async (name: 'getCardFront' | 'getCardBack' | 'getPassport' | 'getFace' | 'getFaceDocument') => jpegSize(await blobBytes(await t.legacyA[name]({ session_token: id })));
    expect(await size('getCardFront')).toEqual({ width: 320, height: 200 });
    expect(await size('getCardBack')).toEqual({ width: 320, height: 200 });
    expect(await size('getPassport')).toEqual({ width: 352, height: 248 });
    expect(await size('getFace')).toEqual({ width: 240, height: 320 });
    expect(await size('getFaceDocument')).toEqual({ width: 320, height: 240 });
    expect(Buffer.from(await blobBytes(await t.legacyA.getFaceVideo({ session_token: id }))).includes(Buffer.from(`liveness ${id}`))).toBe(true);
  });

  it("a statement or bill is a PDF to the session's person and address; a licence a PNG scan, a registration a JPEG photo, labelled", async () => {
    const id = await finished();
    const person = (await t.legacyA.getResult({ session_token: id })).person!;
    const document = async (typeId: 'bank-statement' | 'utility-bill' | 'drivers-license' | 'vehicle-registration-certificate-front') => blobBytes(await t.legacyA.getGeneralDocument({ session_token: id, typeId }));
    for (const [typeId, title] of [['bank-statement', 'Bank statement'], ['utility-bill', 'Utility bill']] as const) {
      expect(pdfText(await document(typeId)).split('\n')).toEqual([title, `Holder: ${person.first_name} ${person.last_name}`, `Address: ${person.address}`, `Session ID: ${id}`, 'Sample document made by the IDV sandbox.']);
    }
    const licence = await document('drivers-license');
    expect(pngSize(licence)).toEqual({ width: 320, height: 200 });
    expect(Buffer.from(licence).includes(Buffer.from(`idv-sandbox general-document drivers-license ${id}`))).toBe(true);
    const registration = await document('vehicle-registration-certificate-front');
    expect(jpegSize(registration)).toEqual({ width: 320, height: 200 });
    expect(Buffer.from(registration).includes(Buffer.from(`idv-sandbox general-document vehicle-registration-certificate-front ${id}`))).toBe(true);
  });
});
