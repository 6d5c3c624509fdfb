import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { solidJpeg } from '../media/jpeg.js';
import { sampleMp4 } from '../media/mp4.js';
import { codeOf, startTestSandbox } from '../sandbox.test-helper.js';
import { responseProblems } from './responses.test-helper.js';
import { tinyJpeg, tinyPng } from '../media/tiny-samples.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

const face = (size: number, label = 'face') => solidJpeg(size, size + 40, label);

describe('compareFaces', () => {
  it('scores two JPEG faces, the same figure every time and in either order', async () => {
    const one = face(200, 'alice');
    const two = face(160, 'bob');
    const body = await t.a.compareFaces({ face1: one, face2: two });
    expect(responseProblems('current', 'compareFaces', body)).toEqual([]);
    const { similarity, face1Statuses, face2Statuses } = body.result;
    expect(similarity).toBeGreaterThanOrEqual(0.05);
    expect(similarity).toBeLessThanOrEqual(0.98);
    expect(face1Statuses).toEqual([]);
    expect(face2Statuses).toEqual([]);
    expect((await t.a.compareFaces({ face1: one, face2: two })).result.similarity).toBe(similarity);
    expect((await t.a.compareFaces({ face1: two, face2: one })).result.similarity).toBe(similarity);
    expect((await t.b.compareFaces({ face1: one, face2: two })).result.similarity).toBe(similarity);
    expect((await t.a.compareFaces({ face1: one, face2: one })).result.similarity).toBe(1);
  });

  it.each([
    [65, 'face1'],
    [79, 'face2'],
  ] as const)('a %i px face gives similarity null and FACE_FAR_AWAY on %s', async (size, which) => {
    const small = face(size, 'small');
    const big = face(120, 'big');
    const body = await t.a.compareFaces(which === 'face1' ? { face1: small, face2: big } : { face1: big, face2: small });
    expect(responseProblems('current', 'compareFaces', body)).toEqual([]);
    expect(body.result.similarity).toBeNull();
    expect(body.result[`${which}Statuses`]).toEqual(['FACE_FAR_AWAY']);
    expect(body.result[which === 'face1' ? 'face2Statuses' : 'face1Statuses']).toEqual([]);
  });

  it('takes 80 px as big enough and flags both faces when both are small', async () => {
    const edge = (await t.a.compareFaces({ face1: face(80), face2: face(80, 'other') })).result;
    expect(edge.similarity).not.toBeNull();
    expect([edge.face1Statuses, edge.face2Statuses]).toEqual([[], []]);
    const both = await t.a.compareFaces({ face1: face(70), face2: face(66, 'other') });
    expect(both.result).toEqual({ similarity: null, face1Statuses: ['FACE_FAR_AWAY'], face2Statuses: ['FACE_FAR_AWAY'] });
  });

  it('finds no face under 65 px: wrong-parameters', async () => {
    expect(await codeOf(t.a.compareFaces({ face1: face(64), face2: face(120) }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.compareFaces({ face1: face(120), face2: tinyJpeg() }))).toBe('wrong-parameters');
  });

  it('sizes a JPEG without a readable frame header from its hash, never under 80 px', async () => {
    const headless = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]);
    const { result } = await t.a.compareFaces({ face1: headless, face2: face(100) });
    expect(result.similarity).toEqual(expect.any(Number));
  });

  it('refuses files that are not JPEG, missing files and text fields', async () => {
    expect(await codeOf(t.a.compareFaces({ face1: tinyPng(), face2: face(100) }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.compareFaces({ face1: face(100), face2: new TextEncoder().encode('%PDF-1.7\n') }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.compareFaces({ face1: face(100) } as never))).toBe('wrong-parameters');
    expect(await codeOf(t.a.compareFaces({ face2: face(100) } as never))).toBe('wrong-parameters');
    expect(await codeOf(t.a.compareFaces({ face1: face(100), face2: 'not a file' } as never))).toBe('wrong-parameters');
  });
});

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('checkSpoofing', () => {
  it('answers from the bytes: the same video gives the same answer, and both outcomes occur', async () => {
    const outcomes = new Map<boolean, string[]>();
    for (let i = 0; i < 24 && outcomes.size < 2; i++) {
      const body = await t.a.checkSpoofing({ file: base64(sampleMp4(`video ${i}`)) });
      expect(responseProblems('current', 'checkSpoofing', body)).toEqual([]);
      expect((await t.a.checkSpoofing({ file: base64(sampleMp4(`video ${i}`)) })).result).toEqual(body.result);
      outcomes.set(body.result.isSpoof, body.result.statuses as string[]);
    }
    expect(outcomes.get(false)).toEqual([]);
    expect(outcomes.get(true)).toEqual([expect.stringMatching(/^[A-Z_]+$/)]);
  });

  it('accepts base64 with line breaks', async () => {
    const text = base64(sampleMp4('wrapped'));
    const wrapped = text.match(/.{1,20}/g)!.join('\r\n');
    expect((await t.a.checkSpoofing({ file: wrapped })).result).toEqual((await t.a.checkSpoofing({ file: text })).result);
  });

  it('refuses a file that is not base64', async () => {
    for (const file of ['not base64!', 'AAA', '====', 'data:video/mp4;base64,AAAA', ''])
      expect(await codeOf(t.a.checkSpoofing({ file }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.checkSpoofing({ file: 42 } as never))).toBe('wrong-parameters');
    expect(await codeOf(t.a.checkSpoofing({} as never))).toBe('wrong-parameters');
  });
});

describe('the figures a tester records', () => {
  // Made up from the bytes, so they are the same in every version: a recorded run keeps its answers.
  it('compareFaces: a similarity from 0.05 to 0.98 in hundredths, per pair of files', async () => {
    const figures = [];
    for (const [a, b] of [['alice', 'bob'], ['alice', 'carol'], ['bob', 'carol'], ['dave', 'erin']]) figures.push((await t.a.compareFaces({ face1: face(120, a), face2: face(120, b) })).result.similarity);
    expect(figures).toEqual([0.67, 0.63, 0.83, 0.24]);
  });

  it('checkSpoofing: one video in four or so a spoof, each with one of three labels', async () => {
    const answers = [];
    for (let i = 0; i < 16; i++) {
      const { result } = await t.a.checkSpoofing({ file: base64(sampleMp4(`video ${i}`)) });
      answers.push(result.isSpoof ? result.statuses[0] : '-');
    }
    expect(answers.join(' ')).toBe('SCREEN_REPLAY - - - PRINTED_PHOTO - - - MASK - - - SCREEN_REPLAY - - -');
  });

  it('sizes a JPEG without a readable frame header at 80 px or more, so it is compared', async () => {
    for (let i = 0; i < 8; i++) {
      const headless = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, i, 0x00]);
      expect((await t.a.compareFaces({ face1: headless, face2: face(100) })).result).toMatchObject({ similarity: expect.any(Number), face1Statuses: [] });
    }
  });
});
