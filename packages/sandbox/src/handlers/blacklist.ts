// The company blacklist: records that the automatic check of every finished KYC session matches
// applicants against (blacklist-match.ts). Every check and its write happen with no await between them,
// so concurrent requests never store a duplicate.
import { ApiError } from '../errors.js';
import type { Context, Handlers } from '../context.js';
import type { BlacklistRecord } from '../state.js';

const identifying = ['firstName', 'lastName', 'personalNumber', 'documentNumber', 'birthday'] as const;

/** Our choice where the reference shows no defaults: pages start at 0 and hold 100 records; no maximum. */
export const defaultOffset = 0;
export const defaultLimit = 100;

/** The UTC calendar day of an ISO 8601 date-time, or undefined when it is not a real moment. */
function dayOf(value: string): string | undefined {
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 10);
}

/**
 * The duplicate rule (our choice; the reference only says a duplicate gives `already-exists`): two
 * records are the same when every identifying field (firstName, lastName, personalNumber,
 * documentNumber, birthday) is equal, strings compared trimmed and case-insensitively, the birthday by
 * its UTC calendar day, and a field absent from one record absent from the other. reason and notes do
 * not count: the same person listed again for another reason is still a duplicate.
 */
function identityOf(record: Omit<BlacklistRecord, 'id'>): string {
  return JSON.stringify(identifying.map((field) => (field === 'birthday' ? (record.birthday ? dayOf(record.birthday) : '') : (record[field] ?? '').trim().toLowerCase())));
}

/**
 * The record the request describes. Strings are stored trimmed, blank ones dropped, and the birthday as
 * a UTC ISO 8601 date-time. A blank reason or no identifying field left (all blank) gives
 * `wrong-parameters` (our choice: the schema lets empty strings through).
 */
function recordFrom(query: Record<string, unknown>): Omit<BlacklistRecord, 'id'> {
  const record: Record<string, string> = {};
  for (const field of ['reason', 'notes', ...identifying]) {
    const value = query[field];
    if (typeof value === 'string' && value.trim() !== '') record[field] = value.trim();
  }
  if (record.birthday !== undefined) {
    if (dayOf(record.birthday) === undefined) throw new ApiError('wrong-parameters');
    record.birthday = new Date(Date.parse(record.birthday)).toISOString();
  }
  if (record.reason === undefined || !identifying.some((field) => record[field] !== undefined)) throw new ApiError('wrong-parameters');
  return record as Omit<BlacklistRecord, 'id'>;
}

/** A record as the interface shows it: its fields, nothing of the sandbox's own. */
const shown = (r: BlacklistRecord): BlacklistRecord => Object.fromEntries(Object.entries(r).filter(([, value]) => value !== undefined)) as BlacklistRecord;

export const blacklistHandlers: Handlers = {
  addBlacklistRecord(context: Context) {
    const company = context.company.companyKey;
    const fields = recordFrom(context.body.query);
    const identity = identityOf(fields);
    if (context.state.blacklist.list(company).some((existing) => identityOf(existing) === identity)) throw new ApiError('already-exists');
    const record: BlacklistRecord = { id: context.ids.next('blk'), ...fields };
    context.state.blacklist.put(company, record.id, record);
    return { json: { result: record.id } };
  },

  removeBlacklistRecord(context: Context) {
    // Another company's record is `not-found` too: an ID never tells that it exists elsewhere.
    if (!context.state.blacklist.delete(context.company.companyKey, context.body.id)) throw new ApiError('not-found');
    return { json: { result: true } };
  },

  listBlacklistRecords(context: Context) {
    const query = context.body.query ?? {};
    const offset: number = query.offset ?? defaultOffset;
    const limit: number = query.limit ?? defaultLimit;
    // Oldest first (our choice: the reference shows no order), so pages stay put as records are added.
    const records = context.state.blacklist.list(context.company.companyKey);
    return { json: { result: { offset, limit, total: records.length, data: records.slice(offset, offset + limit).map(shown) } } };
  },
};
