/** The shapes of the three list operations, as the paginators need them. */
type BlacklistPage<Record> = { result: { offset: number; limit: number; total: number; data: Record[] } };
type MonitoringPage<Record> = { result: { start: number; limit: number; total: number; data: Record[] } };
type SearchPage<Hit> = { result: Hit[] };

export type PageOptions = { pageSize?: number; signal?: AbortSignal };

const defaultPageSize = 100;

/** Every blacklist record, page by page (`offset`/`limit` inside `query`), until `total` is reached. */
export async function* allBlacklistRecords<Record>(
  client: { listBlacklistRecords(params: { query: { offset: number; limit: number } }, options?: { signal?: AbortSignal }): Promise<BlacklistPage<Record>> },
  { pageSize = defaultPageSize, signal }: PageOptions = {},
): AsyncGenerator<Record> {
  for (let offset = 0; ; ) {
    const { result } = await client.listBlacklistRecords({ query: { offset, limit: pageSize } }, { signal });
    yield* result.data;
    offset += result.data.length;
    if (result.data.length === 0 || offset >= result.total) return;
  }
}

/** Every screening monitoring record (`start`/`limit`), optionally only those changed after `date`. */
export async function* allMonitoringRecords<Record>(
  client: { listScreeningMonitoringRecords(params: { start: number; limit: number; date?: string }, options?: { signal?: AbortSignal }): Promise<MonitoringPage<Record>> },
  { pageSize = defaultPageSize, signal, date }: PageOptions & { date?: string } = {},
): AsyncGenerator<Record> {
  for (let start = 0; ; ) {
    const { result } = await client.listScreeningMonitoringRecords({ start, limit: pageSize, ...(date ? { date } : {}) }, { signal });
    yield* result.data;
    start += result.data.length;
    if (result.data.length === 0 || start >= result.total) return;
  }
}

/** Every screening hit of a search (`offset`/`limit` beside `query`); a short page is the last one. */
export async function* allScreeningHits<Query, Hit>(
  client: { searchScreeningPerson(params: { query: Query; offset: number; limit: number }, options?: { signal?: AbortSignal }): Promise<SearchPage<Hit>> },
  query: Query,
  { pageSize = defaultPageSize, signal }: PageOptions = {},
): AsyncGenerator<Hit> {
  for (let offset = 0; ; ) {
    const { result } = await client.searchScreeningPerson({ query, offset, limit: pageSize }, { signal });
    yield* result;
    offset += result.length;
    if (result.length < pageSize) return;
  }
}
