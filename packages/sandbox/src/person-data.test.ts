// The fictional person a session's documents show (README "Results": one of a few sample people, chosen by
// the session ID, the same in the result, the documents and the person data).
import { describe, expect, it } from 'vitest';
import { ageOn, cardFields, mrzOf, personFor, personObject, samplePersons, usDate } from './persons.js';

const jane = samplePersons[0]!; // JANE SAMPLE, F, born 1990-04-01, document 13ID00421, expires 2031-06-14
const at = (iso: string) => Date.parse(`${iso}T12:00:00Z`);

describe('ageOn', () => {
  it('adds a year on the birthday itself, not the day before', () => {
    expect(ageOn('1990-04-01', at('2020-04-01'))).toBe(30);
    expect(ageOn('1990-04-01', at('2020-03-31'))).toBe(29);
    expect(ageOn('1990-04-01', at('2020-03-01'))).toBe(29); // an earlier month
    expect(ageOn('1990-04-01', at('2020-05-01'))).toBe(30); // a later month, an earlier day
    expect(ageOn('1990-04-01', at('2020-12-31'))).toBe(30);
  });
});

describe('usDate', () => {
  it('is M/D/YYYY without leading zeros', () => {
    expect(usDate('1990-04-01')).toBe('4/1/1990');
    expect(usDate('2031-11-23')).toBe('11/23/2031');
  });
});

describe('mrzOf', () => {
  it('is three lines of 30 characters: document, dates and sex, names', () => {
    expect(mrzOf(jane)).toBe(['IDGEO13ID00421<<<<<<<<<<<<<<<<', '9004010F3106140GEO<<<<<<<<<<<<', 'SAMPLE<<JANE<<<<<<<<<<<<<<<<<<'].join('\n'));
  });

  it('writes spaces as < and cuts what is too long', () => {
    const long = { ...jane, firstName: 'ANNA MARIA', lastName: 'VERYLONGSURNAMEOFTHESAMPLEFAMILY' };
    const [, , names] = mrzOf(long).split('\n');
    expect(names).toBe('VERYLONGSURNAMEOFTHESAMPLEFAMI');
    expect(mrzOf({ ...jane, lastName: 'DE SAMPLE' }).split('\n')[2]).toBe('DE<SAMPLE<<JANE<<<<<<<<<<<<<<<');
  });
});

describe('personObject and cardFields', () => {
  it('show the person with US and ISO dates, the age on the day, and the MRZ', () => {
    expect(personObject(jane, at('2026-11-23'))).toEqual({
      first_name: 'JANE',
      last_name: 'SAMPLE',
      birthday: '4/1/1990',
      birthday_time: '1990-04-01T00:00:00.000Z',
      age: 36,
      birth_place: 'TBILISI',
      nationality: 'GEO',
      citizenship: 'GEO',
      document_number: '13ID00421',
      document_issued: '6/14/2021',
      document_issued_time: '2021-06-14T00:00:00.000Z',
      document_expires: '6/14/2031',
      document_expires_time: '2031-06-14T00:00:00.000Z',
      personal_number: '01001012345',
      issuing_state: 'GEO',
      sex: 'F',
      status: 'FIELDS_MATCH',
      mrz: mrzOf(jane),
      address: '1 Example Street, Tbilisi',
    });
    expect(personObject(jane, 0, 'FIELDS_MISMATCH').status).toBe('FIELDS_MISMATCH');
  });

  it('a card front carries the names and dates, its back the authority, issue date and MRZ', () => {
    const now = at('2026-11-23');
    const common = { Document_Number_en_US: '13ID00421', Issuing_State_Code_en_US: 'GEO', Personal_Number_en_US: '01001012345', person: personObject(jane, now) };
    expect(cardFields(jane, 'front', 'req-front', now)).toEqual({
      ...common,
      requestId: 'req-front',
      Given_Names_en_US: 'JANE',
      Surname_en_US: 'SAMPLE',
      Sex_en_US: 'F',
      Date_of_Birth_en_US: '4/1/1990',
      Date_of_Expiry_en_US: '6/14/2031',
      Nationality_Code_en_US: 'GEO',
      Place_of_Birth_en_US: 'TBILISI',
      Date_of_Birth_ISO: '1990-04-01T00:00:00.000Z',
      Date_of_Expiry_ISO: '2031-06-14T00:00:00.000Z',
    });
    expect(cardFields(jane, 'back', 'req-back', now)).toEqual({ ...common, requestId: 'req-back', Authority_en_US: 'PUBLIC SERVICE HALL', Date_of_Issue_en_US: '6/14/2021', Date_of_Issued_ISO: '2021-06-14T00:00:00.000Z', mrz: mrzOf(jane) });
  });
});

describe('personFor', () => {
  it('is the same person for the same ID or bytes, and every sample person is chosen by some ID', () => {
    expect(personFor('sess_1')).toBe(personFor('sess_1'));
    const chosen = new Set(Array.from({ length: 64 }, (_, i) => personFor(`sess_${i}`)));
    expect(chosen.size).toBe(samplePersons.length);
    const big = new Uint8Array(10_000).fill(7);
    expect(personFor(big)).toBe(personFor(new Uint8Array(10_000).fill(7)));
    const bigOnes = new Set(Array.from({ length: 64 }, (_, i) => personFor(new Uint8Array(5_000).fill(i))));
    expect(bigOnes.size).toBe(samplePersons.length);
  });

  it('reads text as its UTF-8 bytes, and stays the same across versions (a recorded seeded run keeps its people)', () => {
    for (const text of ['sess_a', 'sess_b', 'é', 'sess_0123456789abcdef0123456789abcdef']) expect(personFor(text)).toBe(personFor(new TextEncoder().encode(text)));
    expect(personFor('')).toBe(samplePersons[2166136261 % samplePersons.length]);
    expect(personFor('a')).toBe(samplePersons[(Math.imul(2166136261 ^ 0x61, 16777619) >>> 0) % samplePersons.length]);
  });
});
