// Screening: search of the bundled fictional watchlist (screening/watchlist.ts), person details, and
// ongoing monitoring of searched names with its delta records. Bad input that the schema lets through
// (a name without a letter or digit, an impossible date) gets the code the server gives malformed
// screening requests: `access-denied` (`wrong-parameters` where documented) (our choice).
import { refuse } from '../codes.js';
import type { Context, TypedHandlers } from '../context.js';
import type { MonitoringQuery } from '../state.js';
import { pickSchema, shown } from '../shown.js';
import { Duplicate } from '../store.js';
import { searchWatchlist } from '../screening/search.js';
import { nameTokens } from '../screening/transliterate.js';
import { watchlistEntry } from '../screening/watchlist.js';

/** Our choice where the reference shows no defaults: pages start at 0 and hold 100 items; no maximum. */
export const defaultOffset = 0;
export const defaultLimit = 100;
/** The score at which a monitored name counts as matching a watchlist entry (our choice). */
export const monitoringThreshold = 85;
/**
 * The longest fullName searched or monitored (our choice: the reference shows no limit). No real name
 * comes near it, and it bounds the work of one search, whose cost grows with the name's length.
 */
export const maxNameLength = 256;

/**
 * A monitoring query with what the sandbox keeps beside it: its duplicate key, and the watchlist entries
 * it matched when monitoring began (the bundled list never changes, so they stay its matches).
 */
/** A watchlist entry's change, recorded through the control API, on each monitored name it matches. */
type EntryChange = { personId: string; date: string };
type Monitored = MonitoringQuery & { key?: string; matchIds?: string[]; changes?: EntryChange[] };

const badInput = (context: Context): never => refuse(context, 'wrong-parameters', 'access-denied');

/**
 * The calendar day of an optional ISO 8601 date-time, as written (our choice: birth dates are days, so
 * the time and offset after the date do not move it; a person born that day is "on or after" it).
 */
function dayOf(context: Context, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const day = typeof value === 'string' ? /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0] : undefined;
  return day !== undefined && !Number.isNaN(Date.parse(value as string)) ? day : badInput(context);
}

function namedTokens(context: Context, fullName: unknown): string[] {
  const tokens = typeof fullName === 'string' && fullName.length <= maxNameLength ? nameTokens(fullName) : [];
  return tokens.length ? tokens : badInput(context);
}

/** Every screening operation needs the paid screening right (Part 5: `payment-needed`). */
function paid(context: Context) {
  if (!context.company.screeningPaid) refuse(context, 'payment-needed');
}

/**
 * Two monitoring queries are the same (`already-exists`) when their names have the same words after
 * transliteration, in any order and case (they find the same hits), and their birthdayTimeFrom falls
 * on the same UTC day, or both have none (our choice).
 */
const monitoringKey = (tokens: string[], day: string | undefined) => `${[...tokens].sort().join(' ')}|${day ?? ''}`;

function page<T>(items: T[], start: number, limit: number): T[] {
  return items.slice(start, start + limit);
}

export const screeningHandlers: TypedHandlers = {
  /** Hits scoring at least scoreThreshold, best first, then by name; persons born before birthdayTimeFrom left out. */
  searchScreeningPerson(context) {
    const { query, offset = defaultOffset, limit = defaultLimit } = context.body;
    namedTokens(context, query.fullName);
    const bornFrom = dayOf(context, query.birthdayTimeFrom);
    paid(context);
    const hits = searchWatchlist(query.fullName, query.scoreThreshold, bornFrom);
    return { json: { result: page(hits, offset, limit).map(({ entry, score }) => ({ personId: entry.personId, entityType: entry.entityType, name: entry.name, score, topics: [...entry.topics] })) } };
  },

  /** An unknown personId gives `access-denied` (our choice: the reference shows no code for it). */
  getScreeningPersonDetails(context) {
    paid(context);
    const entry = watchlistEntry(context.body.personId) ?? refuse(context, 'access-denied');
    const { entityType, firstName, middleName, lastName, gender, birthdayTime, nationality, extraDetails } = entry;
    const details = Object.fromEntries(Object.entries({ entityType, firstName, middleName, lastName, gender, birthdayTime, nationality }).filter(([, value]) => value !== undefined));
    return { json: { result: { ...details, extraDetails: structuredClone(extraDetails) } } };
  },

  /**
   * Starts monitoring a name. The record's lastUpdatedDate is the moment monitoring found watchlist
   * entries for it (score at least monitoringThreshold): at once, since the bundled list never changes;
   * a name that matches nothing has no lastUpdatedDate (our choice, for the reference's "present only
   * for some records").
   */
  async monitorScreeningQuery(context) {
    const { query } = context.body;
    const company = context.company.companyKey;
    const tokens = namedTokens(context, query.fullName);
    const day = dayOf(context, query.birthdayTimeFrom);
    const key = monitoringKey(tokens, day);
    paid(context);
    if ((await context.state.monitoring.find(company, 'key', key)).length) refuse(context, 'already-exists');
    const matchIds = searchWatchlist(query.fullName, monitoringThreshold, day).map((hit) => hit.entry.personId);
    const now = context.clock.now();
    const record: Monitored = {
      // A property that both the query and the MonitoringRecord schema gain is stored and listed with no code change.
      ...(pickSchema('MonitoringRecord', query) as Partial<Monitored>),
      id: context.ids.next('mon'),
      fullName: query.fullName.trim(),
      ...(query.birthdayTimeFrom !== undefined ? { birthdayTimeFrom: query.birthdayTimeFrom } : {}),
      createdAt: now,
      // Monitoring's own, whatever the query holds.
      lastUpdatedDate: matchIds.length ? new Date(now).toISOString() : undefined,
      key,
      matchIds,
    };
    try {
      await context.state.monitoring.put(company, record.id, record);
    } catch (error) {
      if (error instanceof Duplicate) refuse(context, 'already-exists');
      throw error;
    }
    return { json: { result: record.id } };
  },

  /** An unknown ID, or another company's, gives `access-denied` (our choice: the reference shows no code). */
  async removeScreeningQueryFromMonitoring(context) {
    paid(context);
    if (!(await context.state.monitoring.delete(context.company.companyKey, context.body.id))) refuse(context, 'access-denied');
    return { json: { result: true } };
  },

  /** Oldest first (our choice). With date, only records whose lastUpdatedDate is after it; total counts them. */
  async listScreeningMonitoringRecords(context) {
    const { start = defaultOffset, limit = defaultLimit, date } = context.body;
    const after = date === undefined ? undefined : Date.parse(date);
    if (after !== undefined && Number.isNaN(after)) badInput(context);
    paid(context);
    const records = (await context.state.monitoring.list(context.company.companyKey)).filter((record) => after === undefined || (record.lastUpdatedDate !== undefined && Date.parse(record.lastUpdatedDate) > after));
    const data = page(records, start, limit).map((record) => shown('MonitoringRecord', record));
    return { json: { result: { start, limit, total: records.length, data } } };
  },

  /**
   * Delta records (our choice of meaning; the reference does not explain them): the watchlist entries
   * that the company's monitored names match, each dated when monitoring first found it, oldest first.
   * Empty until a monitored name matches something; an entry leaves when no monitored name matches it.
   */
  async getScreeningDeltaRecords(context) {
    paid(context);
    const found = new Map<string, string>();
    const monitored = (await context.state.monitoring.list(context.company.companyKey)) as Monitored[];
    for (const record of monitored) {
      if (!record.matchIds?.length) continue;
      // Found when monitoring started; later changes are deltas of their own (below).
      const date = new Date(record.createdAt).toISOString();
      for (const id of record.matchIds) {
        if (!found.has(id) || found.get(id)! > date) found.set(id, date);
      }
    }
    // A recorded change to a matched entry is a delta of its own, dated when it happened.
    const changes = monitored.flatMap((record) => record.changes ?? []);
    const unique = new Map([...found].map(([personId, date]) => [`${personId}@${date}`, { personId, date }]));
    for (const change of changes) unique.set(`${change.personId}@${change.date}`, change);
    const deltas = [...unique.values()].map(({ personId, date }) => {
      const entry = watchlistEntry(personId)!;
      return { date, fullName: entry.name, schema: entry.entityType, ...(entry.birthdayTime ? { birthDate: entry.birthdayTime } : {}) };
    });
    deltas.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : x.fullName.localeCompare(y.fullName, 'en')));
    return { json: { result: deltas } };
  },

  /** Control API: a watchlist entry changed now; every monitored name of the company that matches it shows it. */
  async sandboxChangeWatchlistEntry(context) {
    const { personId } = context.body;
    if (!watchlistEntry(personId)) refuse(context, 'wrong-parameters');
    const date = new Date(context.clock.now()).toISOString();
    const company = context.company.companyKey;
    for (const record of (await context.state.monitoring.list(company)) as Monitored[]) {
      if (!record.matchIds?.includes(personId)) continue;
      record.changes = [...(record.changes ?? []), { personId, date }];
      record.lastUpdatedDate = date;
      await context.state.monitoring.put(company, record.id, record);
    }
    return { json: { result: true } };
  },
};
