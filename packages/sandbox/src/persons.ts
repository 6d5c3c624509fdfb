// Clearly fictional people whose documents the sandbox "reads". Chosen deterministically (by session ID
// or image bytes), so the same input always gives the same person.
import type { DocumentPerson, ExtractedDocumentData } from '@idv-toolkit/types';
import { hashNumber } from './media/hash.js';

export type SamplePerson = {
  firstName: string;
  lastName: string;
  sex: 'F' | 'M';
  birthday: string; // ISO date
  personalNumber: string;
  documentNumber: string;
  issued: string;
  expires: string;
  nationality: string;
  birthPlace: string;
  address: string;
};

export const samplePersons: SamplePerson[] = [
  { firstName: 'JANE', lastName: 'SAMPLE', sex: 'F', birthday: '1990-04-01', personalNumber: '01001012345', documentNumber: '13ID00421', issued: '2021-06-14', expires: '2031-06-14', nationality: 'GEO', birthPlace: 'TBILISI', address: '1 Example Street, Tbilisi' },
  { firstName: 'JOHN', lastName: 'SPECIMEN', sex: 'M', birthday: '1985-11-23', personalNumber: '01002023456', documentNumber: '13ID00788', issued: '2019-02-01', expires: '2029-02-01', nationality: 'GEO', birthPlace: 'BATUMI', address: '22 Sample Avenue, Batumi' },
  { firstName: 'ERIKA', lastName: 'MUSTERFRAU', sex: 'F', birthday: '1978-08-12', personalNumber: '01003034567', documentNumber: '13ID01003', issued: '2020-09-30', expires: '2030-09-30', nationality: 'GEO', birthPlace: 'KUTAISI', address: '7 Placeholder Lane, Kutaisi' },
  { firstName: 'MAX', lastName: 'TESTPERSON', sex: 'M', birthday: '2000-01-31', personalNumber: '01004045678', documentNumber: '13ID02040', issued: '2022-03-15', expires: '2032-03-15', nationality: 'GEO', birthPlace: 'RUSTAVI', address: '15 Fixture Road, Rustavi' },
];

/** M/D/YYYY, the form of the `_en_US` dates. */
export const usDate = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return `${m}/${d}/${y}`;
};
const isoTime = (iso: string) => `${iso}T00:00:00.000Z`;

export function ageOn(birthday: string, now: number): number {
  const born = new Date(isoTime(birthday));
  const today = new Date(now);
  let age = today.getUTCFullYear() - born.getUTCFullYear();
  if (today.getUTCMonth() < born.getUTCMonth() || (today.getUTCMonth() === born.getUTCMonth() && today.getUTCDate() < born.getUTCDate())) age--;
  return age;
}

export function mrzOf(p: SamplePerson): string {
  const pad = (s: string, n: number) => s.replace(/ /g, '<').padEnd(n, '<').slice(0, n);
  const yymmdd = (iso: string) => iso.slice(2).replaceAll('-', '');
  return [
    pad(`IDGEO${p.documentNumber}`, 30),
    pad(`${yymmdd(p.birthday)}0${p.sex}${yymmdd(p.expires)}0${p.nationality}`, 30),
    pad(`${p.lastName}<<${p.firstName}`, 30),
  ].join('\n');
}

/** The `person` object of an extraction or a KYC result. */
export function personObject(p: SamplePerson, now: number, status: 'FIELDS_MATCH' | 'FIELDS_MISMATCH' = 'FIELDS_MATCH'): DocumentPerson {
  return {
    first_name: p.firstName,
    last_name: p.lastName,
    birthday: usDate(p.birthday),
    birthday_time: isoTime(p.birthday),
    age: ageOn(p.birthday, now),
    birth_place: p.birthPlace,
    nationality: p.nationality,
    citizenship: p.nationality,
    document_number: p.documentNumber,
    document_issued: usDate(p.issued),
    document_issued_time: isoTime(p.issued),
    document_expires: usDate(p.expires),
    document_expires_time: isoTime(p.expires),
    personal_number: p.personalNumber,
    issuing_state: p.nationality,
    sex: p.sex,
    status,
    mrz: mrzOf(p),
    address: p.address,
  };
}

/** The `<Field>_en_US` data of an identity card side. */
export function cardFields(p: SamplePerson, side: 'front' | 'back', requestId: string, now: number): ExtractedDocumentData & { person: DocumentPerson } {
  const common = {
    Document_Number_en_US: p.documentNumber,
    Issuing_State_Code_en_US: p.nationality,
    Personal_Number_en_US: p.personalNumber,
    requestId,
    person: personObject(p, now),
  };
  if (side === 'back') return { ...common, Authority_en_US: 'PUBLIC SERVICE HALL', Date_of_Issue_en_US: usDate(p.issued), Date_of_Issued_ISO: isoTime(p.issued), mrz: mrzOf(p) };
  return {
    ...common,
    Given_Names_en_US: p.firstName,
    Surname_en_US: p.lastName,
    Sex_en_US: p.sex,
    Date_of_Birth_en_US: usDate(p.birthday),
    Date_of_Expiry_en_US: usDate(p.expires),
    Nationality_Code_en_US: p.nationality,
    Place_of_Birth_en_US: p.birthPlace,
    Date_of_Birth_ISO: isoTime(p.birthday),
    Date_of_Expiry_ISO: isoTime(p.expires),
  };
}

/** A stable choice among the sample people for any text or bytes. */
export function personFor(seed: string | Uint8Array): SamplePerson {
  // An upload's bytes are hashed natively, by a sample when large (media/hash.ts): this loop took about a
  // second of one turn for a 16 MiB image.
  if (typeof seed !== 'string' && seed.length > 4096) return samplePersons[hashNumber(['person', seed]) % samplePersons.length]!;
  let hash = 2166136261;
  const bytes = typeof seed === 'string' ? new TextEncoder().encode(seed) : seed;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 16777619) >>> 0;
  return samplePersons[hash % samplePersons.length]!;
}
