// What each legacy extraction answers, whole (Part 2.12 and the legacy description's examples): the
// fields of the document side, its number (13ID..., 13DL..., 13RP..., 13PA...), the MRZ of the sides
// that have one, and the person. The expected bodies are in document-extractions.expected.json: one image
// (JANE SAMPLE, read as FIELDS_MISMATCH, as one image in eight is) on the test sandbox's clock
// (2026-01-01). The same image gives the same body in every version, so a recorded test run keeps working.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidJpeg } from '../media/jpeg.js';
import { startTestSandbox } from '../sandbox.test-helper.js';

const expected = JSON.parse(readFileSync(new URL('./document-extractions.expected.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const image = solidJpeg(320, 200, 'whole extraction');

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe('a legacy extraction, whole', () => {
  const names = ['extractCardFront', 'extractCardBack', 'extractLicenseFront', 'extractLicenseBack', 'extractResidenceFront', 'extractResidenceBack', 'extractPassport'] as const;

  it.each(names)('%s', async (name) => {
    expect(await t.legacyA[name]({ image })).toEqual(expected[name]);
  });

  it('gives a driver licence one of the classes B, A, B or B, C1, by the image', async () => {
    const classes = new Set<string>();
    for (let i = 0; i < 24 && classes.size < 3; i++) classes.add((await t.legacyA.extractLicenseFront({ image: solidJpeg(320, 200, `licence ${i}`) })).Drivers_License_Class_en_US!);
    expect([...classes].sort()).toEqual(['A, B', 'B', 'B, C1']);
  });
});
