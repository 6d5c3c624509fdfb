// Who a blacklist record is about, as the duplicate rule and the store's unique index read it.
import type { BlacklistRecord } from './state.js';

export const identifyingFields = ['firstName', 'lastName', 'personalNumber', 'documentNumber', 'birthday'] as const;

/**
 * The calendar day a birthday names: the date as written, whatever time and offset follow it (a birthday
 * is a date, not a moment; blacklist-match.ts reads it the same way). Undefined when it is no real date.
 */
export function dayOf(value: string): string | undefined {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
  return day !== undefined && !Number.isNaN(Date.parse(value)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day) ? day : undefined;
}

/**
 * The duplicate rule (our choice; the reference only says a duplicate gives `already-exists`): two
 * records are the same when every identifying field (firstName, lastName, personalNumber,
 * documentNumber, birthday) is equal, strings compared trimmed and case-insensitively, the birthday by
 * the date written in it, and a field absent from one record absent from the other. reason and notes do
 * not count: the same person listed again for another reason is still a duplicate.
 */
export function identityOf(record: Omit<BlacklistRecord, 'id'>): string {
  const { firstName, lastName, personalNumber, documentNumber, birthday } = record;
  return JSON.stringify([key(firstName), key(lastName), key(personalNumber), key(documentNumber), birthday ? (dayOf(birthday) ?? null) : '']);
}

/** An identifying string field as the rule compares it. */
const key = (value: string | undefined) => (value ?? '').trim().toLowerCase();


/** FNV-1a's start and prime, as `hashOf` (store.ts) runs them. */
const fnvStart = 0x811c9dc5;
const fnvPrime = 0x01000193;

/**
 * `hashOf` of `fieldText` as `identityOf` writes it (a comma and the field, in quotes, trimmed and in lower
 * case) carried on from `hash`, for a field of printable ASCII with no quote, backslash or space at either
 * end, which trimming, lowering and JSON write as itself but for the case of its letters; -1 for any other.
 */
function hashField(hash: number, value: unknown, comma: boolean): number {
  if (comma) hash = Math.imul(hash ^ 0x2c, fnvPrime);
  hash = Math.imul(hash ^ 0x22, fnvPrime);
  if (value !== undefined) {
    if (typeof value !== 'string') return -1;
    const last = value.length - 1;
    for (let at = 0; at <= last; at++) {
      let code = value.charCodeAt(at);
      if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c || (code === 0x20 && (at === 0 || at === last))) return -1;
      if (code >= 0x41 && code <= 0x5a) code |= 0x20;
      hash = Math.imul(hash ^ code, fnvPrime);
    }
  }
  return Math.imul(hash ^ 0x22, fnvPrime);
}

/**
 * `hashOf(identityOf(record))` without making the identity's string (issue 14's bench: add-blacklist-record
 * hashes an identity a request for the store's unique index), for a record without a birthday whose
 * identifying fields are plain ASCII (trimming and lowering such text is simple); undefined for any other,
 * whose identity is then made and hashed.
 */
export function identityHashOf(record: Omit<BlacklistRecord, 'id'>): number | undefined {
  if (record.birthday) return undefined;
  // [ then each field; -1 (which a real hash may be too, once in 2^32) sends the record the slow way.
  let hash = hashField(Math.imul(fnvStart ^ 0x5b, fnvPrime), record.firstName, false);
  if (hash !== -1) hash = hashField(hash, record.lastName, true);
  if (hash !== -1) hash = hashField(hash, record.personalNumber, true);
  if (hash !== -1) hash = hashField(hash, record.documentNumber, true);
  if (hash === -1) return undefined;
  // ,"" then ]: no birthday.
  hash = Math.imul(hash ^ 0x2c, fnvPrime);
  hash = Math.imul(hash ^ 0x22, fnvPrime);
  hash = Math.imul(hash ^ 0x22, fnvPrime);
  hash = Math.imul(hash ^ 0x5d, fnvPrime);
  return hash >> 1;
}
