import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toDataUri } from '../media/data-uri.js';
import { solidJpeg } from '../media/jpeg.js';
import { makePdf } from '../media/pdf.js';
import { solidPng } from '../media/png.js';
import { codeOf, keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';
import { blobBytes, dataUriBytes } from './files.test-helper.js';
import { responseProblems } from './responses.test-helper.js';
import { tinyPng } from '../media/tiny-samples.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

// cfg-kyc-standard-01 has a questionnaire step `documents` with questions `proof-of-address` and `occupation`.
const where = { stepKey: 'documents', questionKey: 'proof-of-address' };
const session = async () => (await t.a.begin({ configId: 'cfg-kyc-standard-01' })).id;
const stored = async () => (await t.sandbox.state.files.list(keyA)).length;

describe('upload, read and delete', () => {
  it('stores PDF, JPEG and PNG files and gives each back with its type and bytes', async () => {
    const id = await session();
    const files = [
      { type: 'application/pdf', bytes: await makePdf('Bill', [{ title: 'Bill', lines: ['Sample'] }], 0) },
      { type: 'image/jpeg', bytes: solidJpeg(40, 30, 'upload') },
      { type: 'image/png', bytes: solidPng(4, 4, 'upload') },
    ] as const;
    for (const file of files) {
      const body = await t.a.uploadFile({ sessionId: id, ...where, content: toDataUri(file.type, file.bytes) });
      expect(responseProblems('current', 'uploadFile', body)).toEqual([]);
      const blob = await t.a.getFile({ sessionId: id, ...where, filename: body.result });
      expect(blob.type).toBe(file.type);
      expect(Buffer.from(await blobBytes(blob)).equals(file.bytes)).toBe(true);
    }
  });

  it('get-question-file picks by fileIndex in upload order, 0 by default', async () => {
    const id = await session();
    const jpeg = solidJpeg(16, 16, 'first');
    await t.a.uploadFile({ sessionId: id, ...where, content: toDataUri('image/jpeg', jpeg) });
    await t.a.uploadFile({ sessionId: id, ...where, content: toDataUri('image/png', tinyPng()) });
    await t.a.uploadFile({ sessionId: id, stepKey: 'documents', questionKey: 'occupation', content: toDataUri('image/png', tinyPng()) });
    const first = await t.a.getQuestionFile({ sessionId: id, ...where });
    expect(responseProblems('current', 'getQuestionFile', first)).toEqual([]);
    expect(first.result.contentType).toBe('image/jpeg');
    expect(Buffer.from(dataUriBytes(first.result.content, 'image/jpeg')).equals(jpeg)).toBe(true);
    expect((await t.a.getQuestionFile({ sessionId: id, ...where, fileIndex: 1 })).result.contentType).toBe('image/png');
    expect(await codeOf(t.a.getQuestionFile({ sessionId: id, ...where, fileIndex: 2 }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.getQuestionFile({ sessionId: id, ...where, fileIndex: -1 }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.getQuestionFile({ sessionId: id, stepKey: 'documents', questionKey: 'nothing-here' }))).toBe('wrong-parameters');
  });

  it('deletes for good', async () => {
    const id = await session();
    const { result: fileId } = await t.a.uploadFile({ sessionId: id, ...where, content: toDataUri('image/png', tinyPng()) });
    const deleted = await t.a.deleteFile({ sessionId: id, ...where, filename: fileId });
    expect(deleted).toEqual({ result: true });
    expect(responseProblems('current', 'deleteFile', deleted)).toEqual([]);
    expect(await codeOf(t.a.getFile({ sessionId: id, ...where, filename: fileId }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.deleteFile({ sessionId: id, ...where, filename: fileId }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.getQuestionFile({ sessionId: id, ...where }))).toBe('wrong-parameters');
    expect(await stored()).toBe(0);
  });

  it('keeps every one of many concurrent uploads', async () => {
    const id = await session();
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.a.uploadFile({ sessionId: id, ...where, content: toDataUri('image/jpeg', solidJpeg(8, 8, `n${i}`)) })),
    );
    expect(new Set(ids.map((r) => r.result)).size).toBe(12);
    expect(await stored()).toBe(12);
  });

  it('goes with its session when the session is deleted', async () => {
    const id = await session();
    await t.a.uploadFile({ sessionId: id, ...where, content: toDataUri('image/png', tinyPng()) });
    await t.a.deleteSession({ sessionId: id });
    expect(await stored()).toBe(0);
  });
});

describe('refusals', () => {
  it('refuses content that is not an accepted type or does not match its bytes, and stores nothing', async () => {
    const id = await session();
    const jpeg = solidJpeg(8, 8);
    const bad = [
      toDataUri('image/png', jpeg), // declared PNG, JPEG bytes
      toDataUri('application/pdf', tinyPng()),
      toDataUri('image/gif', jpeg), // not an accepted type
      'data:image/png;base64,@@@@', // not base64
      'data:image/png;base64,iVBORw0KGgo', // cut short, no padding
      'data:image/png;base64,', // empty
      `data:image/jpeg,${Buffer.from(jpeg).toString('latin1')}`, // not base64 encoded
      Buffer.from(jpeg).toString('base64'), // no data URI at all
    ];
    for (const content of bad) expect(await codeOf(t.a.uploadFile({ sessionId: id, ...where, content }))).toBe('wrong-parameters');
    expect(await stored()).toBe(0);
  });

  it('refuses an unknown step or question', async () => {
    const id = await session();
    const content = toDataUri('image/png', tinyPng());
    expect(await codeOf(t.a.uploadFile({ sessionId: id, stepKey: 'no-step', questionKey: 'proof-of-address', content }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.uploadFile({ sessionId: id, stepKey: 'documents', questionKey: 'no-question', content }))).toBe('wrong-parameters');
    // A step without questions (identity-document) takes no files.
    expect(await codeOf(t.a.uploadFile({ sessionId: id, stepKey: 'identity-document', questionKey: 'proof-of-address', content }))).toBe('wrong-parameters');
    expect(await stored()).toBe(0);
  });

  it('refuses a file asked for under another step or question', async () => {
    const id = await session();
    const { result: fileId } = await t.a.uploadFile({ sessionId: id, ...where, content: toDataUri('image/png', tinyPng()) });
    expect(await codeOf(t.a.getFile({ sessionId: id, stepKey: 'documents', questionKey: 'occupation', filename: fileId }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.deleteFile({ sessionId: id, stepKey: 'other', questionKey: 'proof-of-address', filename: fileId }))).toBe('wrong-parameters');
    const other = await session();
    expect(await codeOf(t.a.getFile({ sessionId: other, ...where, filename: fileId }))).toBe('wrong-parameters');
    expect(await stored()).toBe(1);
  });

  it('answers session-not-found for unknown sessions', async () => {
    const content = toDataUri('image/png', tinyPng());
    expect(await codeOf(t.a.uploadFile({ sessionId: 'sess_nope', ...where, content }))).toBe('session-not-found');
    expect(await codeOf(t.a.getFile({ sessionId: 'sess_nope', ...where, filename: 'file_1' }))).toBe('session-not-found');
    expect(await codeOf(t.a.deleteFile({ sessionId: 'sess_nope', ...where, filename: 'file_1' }))).toBe('session-not-found');
    expect(await codeOf(t.a.getQuestionFile({ sessionId: 'sess_nope', ...where }))).toBe('session-not-found');
  });

  it('keeps companies apart', async () => {
    const id = await session();
    const content = toDataUri('image/png', tinyPng());
    const { result: fileId } = await t.a.uploadFile({ sessionId: id, ...where, content });
    expect(await codeOf(t.b.uploadFile({ sessionId: id, ...where, content }))).toBe('invalid-access');
    expect(await codeOf(t.b.getFile({ sessionId: id, ...where, filename: fileId }))).toBe('invalid-access');
    expect(await codeOf(t.b.deleteFile({ sessionId: id, ...where, filename: fileId }))).toBe('invalid-access');
    expect(await codeOf(t.b.getQuestionFile({ sessionId: id, ...where }))).toBe('invalid-access');
    // B's own session cannot reach A's file either.
    const { id: own } = await t.b.begin({ steps: [{ type: 'user-questionnaire', key: 'documents', questions: [{ key: 'proof-of-address', type: 'attachment', mandatory: false, title: { en: 'Proof' } }] }] });
    expect(await codeOf(t.b.getFile({ sessionId: own, ...where, filename: fileId }))).toBe('wrong-parameters');
    expect(await codeOf(t.b.deleteFile({ sessionId: own, ...where, filename: fileId }))).toBe('wrong-parameters');
    expect(await t.sandbox.state.files.list(keyB)).toEqual([]);
    expect(await stored()).toBe(1);
  });
});

describe('files of two steps that ask the same question', () => {
  it('are kept apart by step, and each file ID is a file_ ID', async () => {
    const question = (key: string) => ({ type: 'user-questionnaire', key, questions: [{ key: 'proof-of-address', type: 'attachment', mandatory: false, title: { en: 'Proof' } }] });
    const { id } = await t.a.begin({ steps: [question('first'), question('second')] } as never);
    const { result: fileId } = await t.a.uploadFile({ sessionId: id, stepKey: 'first', questionKey: 'proof-of-address', content: toDataUri('image/png', tinyPng()) });
    expect(fileId).toMatch(/^file_/);
    expect((await t.a.getQuestionFile({ sessionId: id, stepKey: 'first', questionKey: 'proof-of-address' })).result.contentType).toBe('image/png');
    expect(await codeOf(t.a.getQuestionFile({ sessionId: id, stepKey: 'second', questionKey: 'proof-of-address' }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.getFile({ sessionId: id, stepKey: 'second', questionKey: 'proof-of-address', filename: fileId }))).toBe('wrong-parameters');
  });
});
