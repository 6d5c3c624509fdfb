// The company blacklist: records that the automatic check of every finished KYC session matches
// applicants against (blacklist-match.ts). Every check and its write happen with no await between them,
// so concurrent requests never store a duplicate.
import { ApiError } from '../errors.js';
import type { Context, Handlers } from '../context.js';
import type { BlacklistRecord } from '../state.js';
import type { Collection } from '../store.js';

const identifying = ['firstName', 'lastName', 'personalNumber', 'documentNumber', 'birthday'] as const;

/** Our choice where the reference shows no defaults: pages start at 0 and hold 100 records; no maximum. */
export const defaultOffset = 0;
export const defaultLimit = 100;

/**
 * The calendar day a birthday names: the date as written, whatever time and offset follow it (a birthday
 * is a date, not a moment; blacklist-match.ts reads it the same way). Undefined when it is no real date.
 */
function dayOf(value: string): string | undefined {
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
function identityOf(record: Omit<BlacklistRecord, 'id'>): string {
  return JSON.stringify(identifying.map((field) => (field === 'birthday' ? (record.birthday ? dayOf(record.birthday) : '') : (record[field] ?? '').trim().toLowerCase())));
}

/**
 * The record the request describes. Strings are stored trimmed and blank ones dropped. A blank reason or no identifying field left (all blank) gives
 * `wrong-parameters` (our choice: the schema lets empty strings through).
 */
function recordFrom(query: Record<string, unknown>): Omit<BlacklistRecord, 'id'> {
  const record: Record<string, string> = {};
  for (const field of ['reason', 'notes', ...identifying]) {
    const value = query[field];
    if (typeof value === 'string' && value.trim() !== '') record[field] = value.trim();
  }
  if (record.birthday !== undefined && dayOf(record.birthday) === undefined) throw new ApiError('wrong-parameters');
  if (record.reason === undefined || !identifying.some((field) => record[field] !== undefined)) throw new ApiError('wrong-parameters');
  return record as Omit<BlacklistRecord, 'id'>;
}

/**
 * Which record holds an identity, per company, so that a duplicate is found without reading every
 * record (the bench adds thousands). Kept beside each sandbox's collection, built from it the first time
 * a company is seen, and trusted only after a look at the record itself: an entry left behind by a reset
 * or a removal is simply stale, so nothing needs to clear it.
 */
const indexes = new WeakMap<Collection<BlacklistRecord>, Map<string, Map<string, string>>>();

function indexOf(records: Collection<BlacklistRecord>, company: string): Map<string, string> {
  let companies = indexes.get(records);
  if (!companies) indexes.set(records, (companies = new Map()));
  let index = companies.get(company);
  if (!index) companies.set(company, (index = new Map(records.list(company).map((r) => [identityOf(r), r.id]))));
  return index;
}

function holderOf(records: Collection<BlacklistRecord>, company: string, identity: string): BlacklistRecord | undefined {
  const id = indexOf(records, company).get(identity);
  const record = id === undefined ? undefined : records.get(company, id);
  return record && identityOf(record) === identity ? record : undefined;
}

/** A record as the interface shows it: the fields it has. */
const shown = (r: BlacklistRecord): BlacklistRecord => Object.fromEntries(Object.entries(r).filter(([, value]) => value !== undefined)) as BlacklistRecord;

export const blacklistHandlers: Handlers = {
  addBlacklistRecord(context: Context) {
    const company = context.company.companyKey;
    const fields = recordFrom(context.body.query);
    const identity = identityOf(fields);
    if (holderOf(context.state.blacklist, company, identity)) throw new ApiError('already-exists');
    const record: BlacklistRecord = { id: context.ids.next('blk'), ...fields };
    context.state.blacklist.put(company, record.id, record);
    indexOf(context.state.blacklist, company).set(identity, record.id);
    return { json: { result: record.id } };
  },

  removeBlacklistRecord(context: Context) {
    // Another company's record is `not-found` too: an ID never tells that it exists elsewhere.
    const company = context.company.companyKey;
    const record = context.state.blacklist.get(company, context.body.id);
    if (!record || !context.state.blacklist.delete(company, record.id)) throw new ApiError('not-found');
    const index = indexOf(context.state.blacklist, company);
    if (index.get(identityOf(record)) === record.id) index.delete(identityOf(record));
    return { json: { result: true } };
  },

  listBlacklistRecords(context: Context) {
    const query = context.body.query ?? {};
    const offset: number = query.offset ?? defaultOffset;
    const limit: number = query.limit ?? defaultLimit;
    // Oldest first (our choice: the reference shows no order), so pages stay put as records are added.
    const { blacklist } = context.state;
    const company = context.company.companyKey;
    return { json: { result: { offset, limit, total: blacklist.count(company), data: blacklist.page(company, offset, limit).map(shown) } } };
  },
};
