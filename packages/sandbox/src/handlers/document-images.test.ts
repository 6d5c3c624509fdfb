import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashNumber } from '../media/hash.js';
import { solidJpeg } from '../media/jpeg.js';
import { personFor, usDate } from '../persons.js';
import { codeOf, startTestSandbox } from '../sandbox.test-helper.js';
import { checkDigit } from './document-images.js';
import { responseProblems } from './responses.test-helper.js';
import { tinyPng } from '../media/tiny-samples.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

const image = (label: string) => solidJpeg(320, 200, label);
const operations = {
  extractCardFront: 'legacyExtractCardFront',
  extractCardBack: 'legacyExtractCardBack',
  extractLicenseFront: 'legacyExtractLicenseFront',
  extractLicenseBack: 'legacyExtractLicenseBack',
  extractResidenceFront: 'legacyExtractResidenceFront',
  extractResidenceBack: 'legacyExtractResidenceBack',
  extractPassport: 'legacyExtractPassport',
} as const;
const names = Object.keys(operations) as (keyof typeof operations)[];
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('legacy image processing', () => {
  it.each(names)('%s answers data that fits the schema, the same for the same image', async (name) => {
    const bytes = image(`doc ${name}`);
    const body = (await t.legacyA[name]({ image: bytes })) as Record<string, any>;
    expect(responseProblems('legacy', operations[name], body)).toEqual([]);
    expect(body.requestId).toMatch(uuid);
    expect(await t.legacyA[name]({ image: bytes })).toEqual(body);
    const other = (await t.legacyA[name]({ image: image(`another ${name}`) })) as Record<string, any>;
    expect(other.requestId).not.toBe(body.requestId);
    expect(['FIELDS_MATCH', 'FIELDS_MISMATCH']).toContain(body.person.status);
  });

  it('reads the sample person the image picks, on every document', async () => {
    const bytes = image('jane?');
    const p = personFor(bytes);
    const front = await t.legacyA.extractCardFront({ image: bytes });
    expect(front).toMatchObject({ Given_Names_en_US: p.firstName, Surname_en_US: p.lastName, Personal_Number_en_US: p.personalNumber, Date_of_Birth_en_US: usDate(p.birthday), Date_of_Birth_ISO: `${p.birthday}T00:00:00.000Z` });
    expect(front.person).toMatchObject({ first_name: p.firstName, document_number: p.documentNumber, personal_number: p.personalNumber });
    const back = await t.legacyA.extractCardBack({ image: bytes });
    expect(back.mrz!.split('\n')).toHaveLength(3);
    const license = await t.legacyA.extractLicenseFront({ image: bytes });
    expect(license).toMatchObject({ Address_en_US: p.address, Drivers_License_Class_en_US: expect.any(String), Document_Number_en_US: expect.stringContaining('DL') });
    expect(await t.legacyA.extractLicenseBack({ image: bytes })).toMatchObject({ Issuing_State_Code_en_US: 'GEO', person: { issuing_state: 'GEO' } });
    const residence = await t.legacyA.extractResidenceFront({ image: bytes });
    expect(residence).toMatchObject({ Surname_en_US: p.lastName, Nationality_Code_en_US: p.nationality, Document_Number_en_US: expect.stringContaining('RP') });
    const residenceBack = await t.legacyA.extractResidenceBack({ image: bytes });
    const td1 = residenceBack.mrz!.split('\n');
    expect(td1.map((line) => line.length)).toEqual([30, 30, 30]);
    expect(td1[0]!.slice(0, 5)).toBe(`IR${p.nationality}`);
  });

  it('gives a passport its MRZ with valid check digits', async () => {
    const bytes = image('passport page');
    const p = personFor(bytes);
    const body = await t.legacyA.extractPassport({ image: bytes });
    const [line1, line2] = body.mrzData!.mrz!.split('\n') as [string, string];
    expect([line1.length, line2.length]).toEqual([44, 44]);
    expect(line1).toMatch(new RegExp(`^P<${p.nationality}${p.lastName}<<${p.firstName}<`));
    expect(line2[9]).toBe(checkDigit(line2.slice(0, 9)));
    expect(line2[19]).toBe(checkDigit(line2.slice(13, 19)));
    expect(line2[27]).toBe(checkDigit(line2.slice(21, 27)));
    expect(line2[42]).toBe(checkDigit(line2.slice(28, 42)));
    expect(line2[43]).toBe(checkDigit(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 43)));
    expect(body.person).toMatchObject({ document_number: body.mrzData!.Document_Number_en_US, mrz: body.mrzData!.mrz });
    expect(body.visualData).toMatchObject({ Surname_en_US: p.lastName, Place_of_Birth_en_US: p.birthPlace });
  });

  it('computes ICAO check digits (the specimen passport of ICAO 9303)', () => {
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('120415')).toBe('9');
    expect(checkDigit('ZE184226B<<<<<')).toBe('1');
    expect(checkDigit('L898902C36' + '7408122' + '1204159ZE184226B<<<<<1')).toBe('0');
  });

  it('reads some images as FIELDS_MISMATCH', async () => {
    let label = 0;
    while (hashNumber(['fields status', image(`m${label}`)]) % 8 !== 0) label++;
    const body = await t.legacyA.extractCardFront({ image: image(`m${label}`) });
    expect(body.person!.status).toBe('FIELDS_MISMATCH');
  });

  it.each(names)('%s refuses an image that is not a JPEG, a missing image and a text field', async (name) => {
    expect(await codeOf(t.legacyA[name]({ image: tinyPng() }))).toBe('wrong-parameters');
    expect(await codeOf(t.legacyA[name]({ image: new Uint8Array([0xff, 0xd8]) }))).toBe('wrong-parameters');
    expect(await codeOf(t.legacyA[name]({} as never))).toBe('wrong-parameters');
    expect(await codeOf(t.legacyA[name]({ image: 'a picture' } as never))).toBe('wrong-parameters');
    expect(await codeOf(t.legacyB[name]({ image: tinyPng() }))).toBe('wrong-parameters');
  });
});
