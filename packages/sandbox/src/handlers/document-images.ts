// Legacy image processing: data "read" from a single JPEG of an identity card, driver license, residence
// permit or passport, outside any session. The sandbox reads nothing: the bytes pick a sample person
// (persons.ts) and the request ID, so the same image always gives the same answer. The shapes follow
// Part 2.12 and the examples of the legacy description.
import { refuse } from '../codes.js';
import type { Handler, OperationId, ResponseBody, TypedHandlers } from '../context.js';
import { hashNumber, uuidOf } from '../media/hash.js';
import { isJpeg } from '../media/sniff.js';
import { cardFields, personFor, personObject, usDate, type SamplePerson } from '../persons.js';

type Side = 'card-front' | 'card-back' | 'license-front' | 'license-back' | 'residence-front' | 'residence-back' | 'passport';
type Status = 'FIELDS_MATCH' | 'FIELDS_MISMATCH';
/** Each side's operation, whose 200 body (generated from the legacy description) its extraction is. */
const operationOf = {
  'card-front': 'legacyExtractCardFront',
  'card-back': 'legacyExtractCardBack',
  'license-front': 'legacyExtractLicenseFront',
  'license-back': 'legacyExtractLicenseBack',
  'residence-front': 'legacyExtractResidenceFront',
  'residence-back': 'legacyExtractResidenceBack',
  passport: 'legacyExtractPassport',
} as const satisfies Record<Side, OperationId>;
type Extraction<S extends Side = Side> = ResponseBody<(typeof operationOf)[S]>;

const isoTime = (date: string) => `${date}T00:00:00.000Z`;
const authority = 'PUBLIC SERVICE HALL';
const nationalityNames: Record<string, string> = { GEO: 'GEORGIA' };
const licenseClasses = ['B', 'A, B', 'B, C1'];

/** Document numbers of the other documents, from the ID card's (13ID00421 -> 13PA00421, 13DL00421, 13RP00421). */
const numberOf = (p: SamplePerson, code: 'PA' | 'DL' | 'RP') => p.documentNumber.replace('ID', code);

/** ICAO 9303 check digit: weights 7, 3, 1; digits as themselves, A-Z as 10-35, '<' as 0. */
export function checkDigit(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const value = c >= '0' && c <= '9' ? Number(c) : c >= 'A' && c <= 'Z' ? c.charCodeAt(0) - 55 : 0;
    sum += value * [7, 3, 1][i % 3]!;
  }
  return String(sum % 10);
}

const field = (text: string, length: number) => text.toUpperCase().replace(/[^A-Z0-9<]/g, '<').padEnd(length, '<').slice(0, length);
const yymmdd = (date: string) => date.slice(2).replaceAll('-', '');
const mrzName = (p: SamplePerson, length: number) => field(`${p.lastName}<<${p.firstName.replaceAll(' ', '<')}`, length);

/** A TD3 (passport) machine-readable zone: two lines of 44, with check digits. */
export function passportMrz(p: SamplePerson): string {
  const number = field(numberOf(p, 'PA'), 9);
  const personal = field(p.personalNumber, 14);
  const parts = [number + checkDigit(number), yymmdd(p.birthday) + checkDigit(yymmdd(p.birthday)), yymmdd(p.expires) + checkDigit(yymmdd(p.expires)), personal + checkDigit(personal)];
  const line2 = `${parts[0]}${p.nationality}${parts[1]}${p.sex}${parts[2]}${parts[3]}`;
  return [`P<${p.nationality}${mrzName(p, 39)}`, line2 + checkDigit(parts.join(''))].join('\n');
}

/** A TD1 (residence permit card) machine-readable zone: three lines of 30, with check digits. */
export function residenceMrz(p: SamplePerson): string {
  const number = field(numberOf(p, 'RP'), 9);
  const upper = `${number}${checkDigit(number)}${field('', 15)}`;
  const birth = yymmdd(p.birthday) + checkDigit(yymmdd(p.birthday));
  const expiry = yymmdd(p.expires) + checkDigit(yymmdd(p.expires));
  const middle = `${birth}${p.sex}${expiry}${p.nationality}${field('', 11)}`;
  const composite = checkDigit(upper + birth + expiry + field('', 11));
  return [`IR${p.nationality}${upper}`, middle + composite, mrzName(p, 30)].join('\n');
}

/** Fields every front of a card-shaped document carries. */
function frontFields(p: SamplePerson, number: string) {
  return {
    Given_Names_en_US: p.firstName,
    Surname_en_US: p.lastName,
    Sex_en_US: p.sex,
    Date_of_Birth_en_US: usDate(p.birthday),
    Date_of_Issue_en_US: usDate(p.issued),
    Date_of_Expiry_en_US: usDate(p.expires),
    Document_Number_en_US: number,
    Personal_Number_en_US: p.personalNumber,
    Date_of_Birth_ISO: isoTime(p.birthday),
    Date_of_Expiry_ISO: isoTime(p.expires),
    Date_of_Issued_ISO: isoTime(p.issued),
  };
}

/** The `person` of an extraction: the sample person's, with the document's own number, MRZ and authority. */
function personWith(p: SamplePerson, now: number, status: Status, document: { number: string; mrz?: string }) {
  const { mrz: _cardMrz, ...person } = personObject(p, now, status);
  return { ...person, document_number: document.number, authority, ...(document.mrz ? { mrz: document.mrz } : {}) };
}

function extract(side: Side, p: SamplePerson, requestId: string, now: number, status: Status, hash: number): Extraction {
  switch (side) {
    case 'card-front':
    case 'card-back': {
      const fields = cardFields(p, side === 'card-front' ? 'front' : 'back', requestId, now);
      const extra = side === 'card-front' ? { Nationality_en_US: nationalityNames[p.nationality] ?? p.nationality, citizenship: p.nationality } : { Place_of_Birth_en_US: p.birthPlace };
      return { ...fields, ...extra, person: { ...fields.person, authority, status } };
    }
    case 'license-front': {
      const number = numberOf(p, 'DL');
      const { Sex_en_US: _sex, ...front } = frontFields(p, number);
      return {
        ...front,
        Place_of_Birth_en_US: p.birthPlace,
        Authority_en_US: authority,
        Address_en_US: p.address,
        Drivers_License_Class_en_US: licenseClasses[hash % licenseClasses.length],
        requestId,
        person: { ...personWith(p, now, status, { number }), address: p.address },
      };
    }
    case 'license-back':
      return { Issuing_State_Code_en_US: p.nationality, requestId, person: { issuing_state: p.nationality, status } };
    case 'residence-front': {
      const number = numberOf(p, 'RP');
      return {
        ...frontFields(p, number),
        Nationality_en_US: nationalityNames[p.nationality] ?? p.nationality,
        Nationality_Code_en_US: p.nationality,
        requestId,
        person: personWith(p, now, status, { number }),
      };
    }
    case 'residence-back': {
      const mrz = residenceMrz(p);
      return { Issuing_State_Code_en_US: p.nationality, Authority_en_US: authority, Place_of_Birth_en_US: p.birthPlace, mrz, requestId, person: personWith(p, now, status, { number: numberOf(p, 'RP'), mrz }) };
    }
    case 'passport': {
      const number = numberOf(p, 'PA');
      const mrz = passportMrz(p);
      const front = frontFields(p, number);
      return {
        mrzData: {
          Given_Names_en_US: front.Given_Names_en_US,
          Surname_en_US: front.Surname_en_US,
          Sex_en_US: front.Sex_en_US,
          Personal_Number_en_US: front.Personal_Number_en_US,
          Date_of_Birth_en_US: front.Date_of_Birth_en_US,
          Date_of_Expiry_en_US: front.Date_of_Expiry_en_US,
          Document_Number_en_US: number,
          Issuing_State_Code_en_US: p.nationality,
          Nationality_Code_en_US: p.nationality,
          Date_of_Birth_ISO: front.Date_of_Birth_ISO,
          Date_of_Expiry_ISO: front.Date_of_Expiry_ISO,
          mrz,
        },
        visualData: {
          Given_Names_en_US: front.Given_Names_en_US,
          Surname_en_US: front.Surname_en_US,
          Nationality_en_US: nationalityNames[p.nationality] ?? p.nationality,
          Place_of_Birth_en_US: p.birthPlace,
          Date_of_Issue_en_US: front.Date_of_Issue_en_US,
          Authority_en_US: authority,
          Date_of_Issued_ISO: front.Date_of_Issued_ISO,
        },
        requestId,
        person: personWith(p, now, status, { number, mrz }),
      };
    }
  }
}

/**
 * The image must be a JPEG file by its magic number (our choice: `wrong-parameters` otherwise, the code
 * the legacy description chose). Our choice: one image in eight, by hash, reads as FIELDS_MISMATCH.
 */
function extractor<S extends Side>(side: S): Handler<(typeof operationOf)[S]> {
  return (context) => {
    const bytes = context.files.image?.bytes;
    if (!isJpeg(bytes)) refuse(context, 'wrong-parameters');
    const status: Status = hashNumber(['fields status', bytes]) % 8 === 0 ? 'FIELDS_MISMATCH' : 'FIELDS_MATCH';
    const body = extract(side, personFor(bytes), uuidOf('extract', side, bytes), context.clock.now(), status, hashNumber(['extract', side, bytes]));
    // The switch in extract checks each side's body against the union of the extractions; which one is the side's is its case.
    return { json: body as Extraction<S> };
  };
}

export const documentImagesHandlers: TypedHandlers = {
  legacyExtractCardFront: extractor('card-front'),
  legacyExtractCardBack: extractor('card-back'),
  legacyExtractLicenseFront: extractor('license-front'),
  legacyExtractLicenseBack: extractor('license-back'),
  legacyExtractResidenceFront: extractor('residence-front'),
  legacyExtractResidenceBack: extractor('residence-back'),
  legacyExtractPassport: extractor('passport'),
};
