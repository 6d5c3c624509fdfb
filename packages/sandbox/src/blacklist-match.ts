// The automatic blacklist check of a finished KYC session: the person read from the documents against
// the company's records. A record matches on its document number or personal number, or, when it has
// neither that matches, on first and last name together (and birthday, when the record has one).
import type { SamplePerson } from './persons.js';
import type { BlacklistRecord } from './state.js';

const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

export function matchingRecord(person: SamplePerson, records: BlacklistRecord[]): BlacklistRecord | undefined {
  return records.find(
    (r) =>
      same(r.documentNumber, person.documentNumber) ||
      same(r.personalNumber, person.personalNumber) ||
      (same(r.firstName, person.firstName) && same(r.lastName, person.lastName) && (r.birthday === undefined || r.birthday.slice(0, 10) === person.birthday)),
  );
}
