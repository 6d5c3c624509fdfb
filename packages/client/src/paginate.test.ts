import { describe, expect, it } from 'vitest';
import { allBlacklistRecords, allMonitoringRecords, allScreeningHits, createClient } from './index.js';
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
