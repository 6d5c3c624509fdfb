import type { CallOptions, CallResult } from './core.js';
import type { PageOptions as AllPageOptions } from './operation-types.js';

/** The shapes of the three list operations, as the paginators need them. */
type BlacklistPage<Record> = { result: { offset: number; limit: number; total: number; data: Record[] } };
type MonitoringPage<Record> = { result: { start: number; limit: number; total: number; data: Record[] } };
type SearchPage<Hit> = { result: Hit[] };

/** @deprecated Options of the deprecated `all*` helpers; `.all()` takes {@link AllPageOptions}. */
export type PageOptions = { pageSize?: number; signal?: AbortSignal };

const defaultPageSize = 100;

/** A page size below 1 would ask for empty pages forever (the list operations accept a limit of 0). */
function checkedPageSize(pageSize: number): number {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError('pageSize must be a whole number of at least 1');
  return pageSize;
}

/** How each list operation takes its page, the three paging styles behind one `.all()`: the name of
 * its first-item field, and whether the paging fields sit inside its `query` object. */
export const pagedOperations: Readonly<Record<string, readonly [first: string, inQuery?: boolean]>> = {
  listBlacklistRecords: ['offset', true],
  listScreeningMonitoringRecords: ['start'],
  searchScreeningPerson: ['offset'],
};

function pageParams(params: Record<string, unknown> = {}, [first, inQuery]: readonly [string, boolean?], offset: number, limit: number): object {
  const paging = { [first]: offset, limit };
  return inQuery ? { ...params, query: { ...(params.query as object), ...paging } } : { ...params, ...paging };
}

/**
 * Every item of a list operation, page by page: until `total` where the page gives one, else until a
 * short page. A failed page rejects with its typed error (an iterator has no other way to say it).
 */
export async function* walkPages(
  send: (params: object, options: CallOptions) => Promise<CallResult>,
  page: readonly [first: string, inQuery?: boolean],
  params: Record<string, unknown> | undefined,
  { pageSize = defaultPageSize, ...options }: AllPageOptions = {},
): AsyncGenerator<unknown, void, undefined> {
  checkedPageSize(pageSize);
  for (let offset = 0; ; ) {
    const { data, error } = await send(pageParams(params, page, offset, pageSize), options);
    if (error) throw error;
    const result = (data as { result: unknown[] & { data?: unknown[]; total?: number } }).result;
    const items = result.data ?? result;
    yield* items;
    offset += items.length;
    // Until `total` where the page gives one, else until a short page; an empty page ends it either way.
    if (!items.length || offset >= (result.total ?? (items.length < pageSize ? 0 : Infinity))) return;
  }
}


/** @deprecated Use `idv.listBlacklistRecords.all()`. Every blacklist record, page by page (`offset`/`limit` inside `query`), until `total` is reached. */
export async function* allBlacklistRecords<Record>(
  client: { listBlacklistRecords(params: { query: { offset: number; limit: number } }, options?: { signal?: AbortSignal }): Promise<BlacklistPage<Record>> },
  { pageSize = defaultPageSize, signal }: PageOptions = {},
): AsyncGenerator<Record> {
  checkedPageSize(pageSize);
  for (let offset = 0; ; ) {
    const { result } = await client.listBlacklistRecords({ query: { offset, limit: pageSize } }, { signal });
    yield* result.data;
    offset += result.data.length;
    if (result.data.length === 0 || offset >= result.total) return;
  }
}

/** @deprecated Use `idv.listScreeningMonitoringRecords.all({ date })`. Every screening monitoring record (`start`/`limit`), optionally only those changed after `date`. */
export async function* allMonitoringRecords<Record>(
  client: { listScreeningMonitoringRecords(params: { start: number; limit: number; date?: string }, options?: { signal?: AbortSignal }): Promise<MonitoringPage<Record>> },
  { pageSize = defaultPageSize, signal, date }: PageOptions & { date?: string } = {},
): AsyncGenerator<Record> {
  checkedPageSize(pageSize);
  for (let start = 0; ; ) {
    const { result } = await client.listScreeningMonitoringRecords({ start, limit: pageSize, ...(date ? { date } : {}) }, { signal });
    yield* result.data;
    start += result.data.length;
    if (result.data.length === 0 || start >= result.total) return;
  }
}

/** @deprecated Use `idv.searchScreeningPerson.all({ query })`. Every screening hit of a search (`offset`/`limit` beside `query`); a short page is the last one. */
export async function* allScreeningHits<Query, Hit>(
  client: { searchScreeningPerson(params: { query: Query; offset: number; limit: number }, options?: { signal?: AbortSignal }): Promise<SearchPage<Hit>> },
  query: Query,
  { pageSize = defaultPageSize, signal }: PageOptions = {},
): AsyncGenerator<Hit> {
  checkedPageSize(pageSize);
  for (let offset = 0; ; ) {
    const { result } = await client.searchScreeningPerson({ query, offset, limit: pageSize }, { signal });
    yield* result;
    offset += result.length;
    if (result.length < pageSize) return;
  }
}
