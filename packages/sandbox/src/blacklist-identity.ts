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

