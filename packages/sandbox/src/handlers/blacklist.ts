// The company blacklist: records that the automatic check of every finished KYC session matches
// applicants against (blacklist-match.ts). The duplicate rule (blacklist-identity.ts) is the store's
// unique `identity` index: the store's put refuses a taken identity (Duplicate), on every store and across
// instances on one database.
import { dayOf, identifyingFields as identifying, identityOf } from '../blacklist-identity.js';
import { ApiError, StoreFull } from '../errors.js';
import type { Context, TypedHandlers } from '../context.js';
import type { BlacklistRecord } from '../state.js';
import { lazyReplyWithText } from '../json-text.js';
import { pickSchema, shown } from '../shown.js';
import { Duplicate, type Collection } from '../store.js';

/** Our choice where the reference shows no defaults: pages start at 0 and hold 100 records; no maximum. */
export const defaultOffset = 0;
export const defaultLimit = 100;

/**
 * The record the request describes. Strings are stored trimmed and blank ones dropped. A blank reason or no identifying field left (all blank) gives
 * `wrong-parameters` (our choice: the schema lets empty strings through).
 */
function recordFrom(query: Record<string, unknown>): BlacklistRecord {
  // The stored record itself, its ID set once drawn: made from an empty object, which has room for the
  // usual fields in the object itself (a copy with the ID put first kept its fields in an array of their
  // own, one more object for every record the store keeps; issue 14's bench).
  const record: Record<string, unknown> = {};
  record.id = '';
  // Every property of the listed record's schema (a new one included), so that the list shows it.
  const picked = pickSchema('BlacklistRecord', query);
  for (const field in picked) {
    const value = picked[field];
    if (field === 'id') continue;
    if (typeof value !== 'string') record[field] = value;
    else if (value.trim() !== '') record[field] = value.trim();
  }
  if (record.birthday !== undefined && dayOf(String(record.birthday)) === undefined) throw new ApiError('wrong-parameters');
  if (record.reason === undefined || !identifying.some((field) => record[field] !== undefined)) throw new ApiError('wrong-parameters');
  return record as BlacklistRecord;
}


/**
 * Each listed record's JSON as the list shows it, written once per stored record: serialising the page
 * was most of what a list request cost (issue 14's bench). Keyed by the stored object: no operation
 * changes a stored blacklist record (a record added again is a new object), and a store that reads each
 * page anew (SQL) gives new objects, which are written as before.
 */
const shownJson = new WeakMap<BlacklistRecord, string>();
function shownJsonOf(record: BlacklistRecord): string {
  let text = shownJson.get(record);
  if (text === undefined) shownJson.set(record, (text = JSON.stringify(shown('BlacklistRecord', record))));
  return text;
}

/** A page as last written for a company: the same query over the same stored records gives the same bytes. */
type Page = { offset: number; limit: number; total: number; data: BlacklistRecord[]; bytes: Buffer };
const lastPages = new Map<string, Page>();
const samePage = (page: Page | undefined, offset: number, limit: number, total: number, data: BlacklistRecord[]): page is Page => {
  if (page === undefined || page.offset !== offset || page.limit !== limit || page.total !== total || page.data.length !== data.length) return false;
  for (let at = 0; at < data.length; at++) if (page.data[at] !== data[at]) return false;
  return true;
};

/**
 * A page's JSON as UTF-8 bytes, the same text JSON.stringify of the listed value gives (keys in the same
 * order), made from each listed record's own. A company's last page is kept: asked again (a client that
 * polls the list) while its stored records and total are the same objects and count, it is the same bytes,
 * written again without being made or encoded again (issue 14's bench lists one page over and over). The
 * PostgreSQL store reads each page anew and gives the same objects for rows whose stored text did not
 * change (sql/store.ts `page`), so its pages are reused too.
 */
function pageBytes(company: string, offset: number, limit: number, total: number, data: BlacklistRecord[]): Buffer {
  const last = lastPages.get(company);
  if (samePage(last, offset, limit, total, data)) return last.bytes;
  const bytes = Buffer.from(`{"result":{"offset":${JSON.stringify(offset)},"limit":${JSON.stringify(limit)},"total":${total},"data":[${data.map(shownJsonOf).join(',')}]}}`);
  lastPages.set(company, { offset, limit, total, data, bytes });
  return bytes;
}

/** A record put through the store's promise; its refusals as the operation answers them. */
async function putRecord(blacklist: Collection<BlacklistRecord>, company: string, record: BlacklistRecord) {
  try {
    await blacklist.put(company, record.id, record);
  } catch (error) {
    if (error instanceof StoreFull) return refusedForRoom(blacklist, company, record, error);
    throw refusalOf(error);
  }
  return { json: { result: record.id } };
}

/** A taken identity is `already-exists`; anything else is thrown as it is. */
const refusalOf = (error: unknown) => (error instanceof Duplicate ? new ApiError('already-exists') : error);

/** A store without room: `already-exists` when the record is stored already, else the store's refusal. */
async function refusedForRoom(blacklist: Collection<BlacklistRecord>, company: string, record: BlacklistRecord, error: StoreFull): Promise<never> {
  if ((await blacklist.find(company, 'identity', identityOf(record))).length) throw new ApiError('already-exists');
  throw error;
}

export const blacklistHandlers: TypedHandlers = {
  addBlacklistRecord(context) {
    const company = context.company.companyKey;
    const record = recordFrom(context.body.query);
    const { blacklist } = context.state;
    // No lookup first: the put refuses a taken identity itself (Duplicate), in the same statement as the
    // write on a database (one round trip in the company's serialised chain, not two). A full store is
    // checked before the identity, so a refusal for room asks whether the record exists, as before.
    record.id = context.ids.next('blk');
    // A store that puts at once (memory) is answered without a promise: no async function, promise and
    // turn a request for it (issue 14's bench). Its refusals are read as the awaited put's below.
    if (!blacklist.putNow) return putRecord(blacklist, company, record);
    try {
      blacklist.putNow(company, record.id, record);
    } catch (error) {
      if (error instanceof StoreFull) return refusedForRoom(blacklist, company, record, error);
      throw refusalOf(error);
    }
    return { json: { result: record.id } };
  },

  async removeBlacklistRecord(context) {
    // Another company's record is `not-found` too: an ID never tells that it exists elsewhere.
    if (!(await context.state.blacklist.delete(context.company.companyKey, context.body.id))) throw new ApiError('not-found');
    return { json: { result: true } };
  },

  async listBlacklistRecords(context) {
    const query = context.body.query ?? {};
    const offset: number = query.offset ?? defaultOffset;
    const limit: number = query.limit ?? defaultLimit;
    // Oldest first (our choice: the reference shows no order), so pages stay put as records are added.
    const { blacklist } = context.state;
    const company = context.company.companyKey;
    const [total, data] = await Promise.all([blacklist.count(company), blacklist.page(company, offset, limit)]);
    // The value (a copy of each listed record) is made only for a caller that reads it: over HTTP nobody does.
    return lazyReplyWithText(() => ({ result: { offset, limit, total, data: data.map((record) => shown('BlacklistRecord', record)) } }), pageBytes(company, offset, limit, total, data));
  },
};
