import { describe, expect, it } from 'vitest';
import { allBlacklistRecords, allMonitoringRecords, allScreeningHits, createClient, IdvApiError } from './index.js';
import { baseUrl, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const records = Array.from({ length: 7 }, (_, i) => ({ id: `r${i}`, reason: 'test' }));
const page = <T>(items: T[], from: number, size: number) => items.slice(from, from + size);
const options = { companyKey: fakeKey, baseUrl, rateLimit: false as const };

describe('paginators', () => {
  it('walk offset/limit inside query until total', async () => {
    const { fetch, sent } = fakeFetch(({ json: body }) => {
      const { offset, limit } = (body!.query as { offset: number; limit: number });
      return json({ result: { offset, limit, total: records.length, data: page(records, offset, limit) } });
    });
    const seen = [];
    for await (const record of allBlacklistRecords(createClient({ ...options, fetch }), { pageSize: 3 })) seen.push(record.id);
    expect(seen).toEqual(records.map((r) => r.id));
    expect(sent.map((s) => (s.json!.query as { offset: number }).offset)).toEqual([0, 3, 6]);
  });

  it('walk start/limit, passing the date filter on', async () => {
    const { fetch, sent } = fakeFetch(({ json: body }) => {
      const { start, limit } = body as { start: number; limit: number };
      return json({ result: { start, limit, total: records.length, data: page(records, start, limit) } });
    });
    const seen = [];
    for await (const record of allMonitoringRecords(createClient({ ...options, fetch }), { pageSize: 4, date: '2026-01-01T00:00:00Z' })) seen.push(record);
    expect(seen).toHaveLength(7);
    expect(sent.map((s) => [s.json!.start, s.json!.date])).toEqual([
      [0, '2026-01-01T00:00:00Z'],
      [4, '2026-01-01T00:00:00Z'],
    ]);
  });

  it('walk the screening search until a short page', async () => {
    const hits = Array.from({ length: 5 }, (_, i) => ({ personId: `p${i}`, name: 'Jane Roe', score: 90, entityType: 'Person', topics: [] }));
    const { fetch, sent } = fakeFetch(({ json: body }) => json({ result: page(hits, body!.offset as number, body!.limit as number) }));
    const seen = [];
    const query = { fullName: 'Jane Roe', scoreThreshold: 80 };
    for await (const hit of allScreeningHits(createClient({ ...options, fetch }), query, { pageSize: 2 })) seen.push(hit.personId);
    expect(seen).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(sent).toHaveLength(3);
    expect(sent[0]!.json!.query).toEqual(query);
  });
});

describe('.all() on the list methods', () => {
  const blacklist = () =>
    fakeFetch(({ json: body }) => {
      const { offset, limit } = body!.query as { offset: number; limit: number };
      return json({ result: { offset, limit, total: records.length, data: page(records, offset, limit) } });
    });

  it('walks offset/limit inside query until total', async () => {
    const { fetch, sent } = blacklist();
    const seen = [];
    for await (const record of createClient({ ...options, fetch }).listBlacklistRecords.all(undefined, { pageSize: 3 })) seen.push(record.id);
    expect(seen).toEqual(records.map((r) => r.id));
    expect(sent.map((s) => s.json!.query)).toEqual([
      { offset: 0, limit: 3 },
      { offset: 3, limit: 3 },
      { offset: 6, limit: 3 },
    ]);
  });

  it('walks start/limit, passing the date filter on', async () => {
    const { fetch, sent } = fakeFetch(({ json: body }) => {
      const { start, limit } = body as { start: number; limit: number };
      return json({ result: { start, limit, total: records.length, data: page(records, start, limit) } });
    });
    const seen = [];
    for await (const record of createClient({ ...options, fetch }).listScreeningMonitoringRecords.all({ date: '2026-01-01T00:00:00Z' }, { pageSize: 4 })) seen.push(record);
    expect(seen).toHaveLength(7);
    expect(sent.map((s) => [s.json!.start, s.json!.limit, s.json!.date])).toEqual([
      [0, 4, '2026-01-01T00:00:00Z'],
      [4, 4, '2026-01-01T00:00:00Z'],
    ]);
  });

  it('walks offset/limit beside the search query until a short page', async () => {
    const hits = Array.from({ length: 5 }, (_, i) => ({ personId: `p${i}`, name: 'Jane Roe', score: 90, entityType: 'Person', topics: [] }));
    const { fetch, sent } = fakeFetch(({ json: body }) => json({ result: page(hits, body!.offset as number, body!.limit as number) }));
    const seen = [];
    const query = { fullName: 'Jane Roe', scoreThreshold: 80 };
    for await (const hit of createClient({ ...options, fetch }).searchScreeningPerson.all({ query }, { pageSize: 2 })) seen.push(hit.personId);
    expect(seen).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(sent.map((s) => [s.json!.offset, s.json!.limit])).toEqual([
      [0, 2],
      [2, 2],
      [4, 2],
    ]);
    expect(sent[0]!.json!.query).toEqual(query);
  });

  it('works with throwOnError: false, and a failed page rejects with its typed error in both modes', async () => {
    const { fetch } = blacklist();
    const safe = createClient({ ...options, fetch, throwOnError: false });
    const seen = [];
    for await (const record of safe.listBlacklistRecords.all(undefined, { pageSize: 100 })) seen.push(record.id);
    expect(seen).toHaveLength(7);

    const failing = fakeFetch((_r, i) => (i === 0 ? json({ result: { offset: 0, limit: 2, total: 7, data: page(records, 0, 2) } }) : json({ argumentError: 'wrong-parameters' }, 400)));
    for (const throwOnError of [true, false]) {
      const idv = createClient({ ...options, fetch: failing.fetch, throwOnError, retry: false });
      const got: string[] = [];
      const walk = async () => {
        for await (const record of idv.listBlacklistRecords.all(undefined, { pageSize: 2 })) got.push(record.id);
      };
      await expect(walk()).rejects.toBeInstanceOf(IdvApiError);
      failing.sent.length = 0;
    }
  });

  it('stops on an empty page even if total says more', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: { offset: 0, limit: 2, total: 99, data: [] } }));
    const seen = [];
    for await (const record of createClient({ ...options, fetch }).listBlacklistRecords.all()) seen.push(record);
    expect(seen).toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it('is only on the list methods', () => {
    const idv = createClient({ ...options, fetch: fakeFetch(() => json({})).fetch }) as unknown as Record<string, { all?: unknown }>;
    expect(Object.keys(idv).filter((name) => typeof idv[name]!.all === 'function').sort()).toEqual(['listBlacklistRecords', 'listScreeningMonitoringRecords', 'searchScreeningPerson']);
  });
});

describe('a page size below 1', () => {
  // The list operations accept a limit of 0 (only the total), so such a walk would never advance.
  it('is refused before any request, by .all() and by the deprecated helpers', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const idv = createClient({ ...options, fetch });
    const query = { fullName: 'Jane Roe', scoreThreshold: 80 };
    for (const pageSize of [0, -1, 1.5]) {
      await expect(idv.searchScreeningPerson.all({ query }, { pageSize }).next()).rejects.toThrow(RangeError);
      await expect(allScreeningHits(idv, query, { pageSize }).next()).rejects.toThrow(RangeError);
      await expect(allBlacklistRecords(idv, { pageSize }).next()).rejects.toThrow(RangeError);
      await expect(allMonitoringRecords(idv, { pageSize }).next()).rejects.toThrow(RangeError);
    }
    expect(sent).toHaveLength(0);
  });
});

describe('the deprecated helpers', () => {
  it('stop on an empty page even if total says more', async () => {
    // A second request would get a 400: the walk must end after the empty page.
    for (const walk of [allBlacklistRecords, allMonitoringRecords]) {
      const { fetch, sent } = fakeFetch((_r, i) => (i === 0 ? json({ result: { offset: 0, start: 0, limit: 2, total: 99, data: [] } }) : json({ argumentError: 'wrong-parameters' }, 400)));
      const seen = [];
      for await (const record of walk(createClient({ ...options, fetch, retry: false }))) seen.push(record);
      expect(seen).toEqual([]);
      expect(sent).toHaveLength(1);
    }
  });

  it('pass their signal on: an aborted walk sends nothing and rejects as aborted', async () => {
    // As fetch does, a request whose signal has aborted is never sent.
    const { fetch, sent } = fakeFetch(({ init }) => (init.signal?.aborted ? Promise.reject(init.signal.reason) : json({ result: [] })));
    const idv = createClient({ ...options, fetch, retry: false });
    const signal = AbortSignal.abort();
    const aborted = { name: 'IdvNetworkError', reason: 'aborted' };
    await expect(allBlacklistRecords(idv, { signal }).next()).rejects.toMatchObject(aborted);
    await expect(allMonitoringRecords(idv, { signal }).next()).rejects.toMatchObject(aborted);
    await expect(allScreeningHits(idv, { fullName: 'Jane Roe', scoreThreshold: 80 }, { signal }).next()).rejects.toMatchObject(aborted);
    expect(sent.filter(({ init }) => !init.signal?.aborted)).toHaveLength(0);
  });
});

describe('a page size of 1', () => {
  it('walks one item a page, by .all() and by the deprecated helpers', async () => {
    const three = records.slice(0, 3);
    const { fetch, sent } = fakeFetch(({ json: body }) => {
      const { offset, limit } = body!.query as { offset: number; limit: number };
      return json({ result: { offset, limit, total: three.length, data: page(three, offset, limit) } });
    });
    const idv = createClient({ ...options, fetch });
    const seen = [];
    for await (const record of idv.listBlacklistRecords.all(undefined, { pageSize: 1 })) seen.push(record.id);
    for await (const record of allBlacklistRecords(idv, { pageSize: 1 })) seen.push(record.id);
    expect(seen).toEqual(['r0', 'r1', 'r2', 'r0', 'r1', 'r2']);
    expect(sent.map((s) => (s.json!.query as { limit: number }).limit)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('is the least: below it the walk is refused with a message that says so', async () => {
    const idv = createClient({ ...options, fetch: fakeFetch(() => json({ result: [] })).fetch });
    await expect(idv.listBlacklistRecords.all(undefined, { pageSize: 0 }).next()).rejects.toThrow(new RangeError('pageSize must be a whole number of at least 1'));
  });
});
