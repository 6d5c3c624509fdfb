// The four sample people docs/sandbox.md lists ("Sample people and documents"): what a finished session or
// a legacy extraction shows for each, and which of them an upload's bytes choose. A recorded or seeded test
// run keeps its people only if these stay the same from one version to the next.
import { describe, expect, it } from 'vitest';
import { mrzOf, personFor, personObject, samplePersons } from './persons.js';

const at = Date.parse('2026-11-23T12:00:00Z');
const iso = (date: string) => `${date}T00:00:00.000Z`;

describe('the sample people', () => {
  it('are the four of the documentation, in this order', () => {
    expect(samplePersons.map((p) => `${p.firstName} ${p.lastName} ${p.birthday} ${p.documentNumber} ${p.personalNumber}`)).toEqual([
      'JANE SAMPLE 1990-04-01 13ID00421 01001012345',
      'JOHN SPECIMEN 1985-11-23 13ID00788 01002023456',
      'ERIKA MUSTERFRAU 1978-08-12 13ID01003 01003034567',
      'MAX TESTPERSON 2000-01-31 13ID02040 01004045678',
    ]);
  });

  it('each shows the same person object (names, dates, places, sex, MRZ) in every result', () => {
    const [, john, erika, max] = samplePersons.map((p) => personObject(p, at));
    expect(john).toEqual({
      first_name: 'JOHN',
      last_name: 'SPECIMEN',
      birthday: '11/23/1985',
      birthday_time: iso('1985-11-23'),
      age: 41, // the 23rd of November 2026 is his birthday
      birth_place: 'BATUMI',
      nationality: 'GEO',
      citizenship: 'GEO',
      document_number: '13ID00788',
      document_issued: '2/1/2019',
      document_issued_time: iso('2019-02-01'),
      document_expires: '2/1/2029',
      document_expires_time: iso('2029-02-01'),
      personal_number: '01002023456',
      issuing_state: 'GEO',
      sex: 'M',
      status: 'FIELDS_MATCH',
      mrz: ['IDGEO13ID00788<<<<<<<<<<<<<<<<', '8511230M2902010GEO<<<<<<<<<<<<', 'SPECIMEN<<JOHN<<<<<<<<<<<<<<<<'].join('\n'),
      address: '22 Sample Avenue, Batumi',
    });
    expect(erika).toEqual({
      first_name: 'ERIKA',
      last_name: 'MUSTERFRAU',
      birthday: '8/12/1978',
      birthday_time: iso('1978-08-12'),
      age: 48,
      birth_place: 'KUTAISI',
      nationality: 'GEO',
      citizenship: 'GEO',
      document_number: '13ID01003',
      document_issued: '9/30/2020',
      document_issued_time: iso('2020-09-30'),
      document_expires: '9/30/2030',
      document_expires_time: iso('2030-09-30'),
      personal_number: '01003034567',
      issuing_state: 'GEO',
      sex: 'F',
      status: 'FIELDS_MATCH',
      mrz: ['IDGEO13ID01003<<<<<<<<<<<<<<<<', '7808120F3009300GEO<<<<<<<<<<<<', 'MUSTERFRAU<<ERIKA<<<<<<<<<<<<<'].join('\n'),
      address: '7 Placeholder Lane, Kutaisi',
    });
    expect(max).toEqual({
      first_name: 'MAX',
      last_name: 'TESTPERSON',
      birthday: '1/31/2000',
      birthday_time: iso('2000-01-31'),
      age: 26,
      birth_place: 'RUSTAVI',
      nationality: 'GEO',
      citizenship: 'GEO',
      document_number: '13ID02040',
      document_issued: '3/15/2022',
      document_issued_time: iso('2022-03-15'),
      document_expires: '3/15/2032',
      document_expires_time: iso('2032-03-15'),
      personal_number: '01004045678',
      issuing_state: 'GEO',
      sex: 'M',
      status: 'FIELDS_MATCH',
      mrz: ['IDGEO13ID02040<<<<<<<<<<<<<<<<', '0001310M3203150GEO<<<<<<<<<<<<', 'TESTPERSON<<MAX<<<<<<<<<<<<<<<'].join('\n'),
      address: '15 Fixture Road, Rustavi',
    });
    expect(mrzOf(samplePersons[1]!)).toBe(john!.mrz);
  });

  it('are a year younger on the days before their birthday in its own month', () => {
    const john = samplePersons[1]!; // born on the 23rd of November 1985
    expect(personObject(john, Date.parse('2026-11-22T23:59:59Z')).age).toBe(40);
    expect(personObject(john, Date.parse('2026-11-23T00:00:00Z')).age).toBe(41);
    expect(personObject(samplePersons[3]!, Date.parse('2026-01-30T12:00:00Z')).age).toBe(25); // Max, born 31 January 2000
  });
});

describe('personFor an upload', () => {
  // An image's bytes choose its person (the legacy extraction operations): the same image, the same person,
  // from one version to the next. Up to 4 KiB every byte counts; a larger upload is hashed natively.
  it('chooses by every byte up to 4 KiB, and by a native digest above', () => {
    expect(personFor(new Uint8Array(4096)).lastName).toBe('SPECIMEN');
    expect(personFor(new Uint8Array(4097)).lastName).toBe('SAMPLE');
    expect(personFor(new Uint8Array(4097).fill(4)).lastName).toBe('MUSTERFRAU');
    expect(personFor(new Uint8Array(4097).fill(1)).lastName).toBe('TESTPERSON');
  });
});
