// The console reads the request log of a sandbox without a database through `memoryLog`: the entries,
// one entry by ID, the addresses and new entries as the memory ring has them, each answered as the
// shared log answers (a promise), for the console's pages and its API.
import { expect, it } from 'vitest';
import { memoryLog } from './request-log.js';
import { exchange, ringOf } from './request-ring-in-process.test-helper.js';

const a = { name: 'Company A', companyKey: 'ck_test_memory_log_a' };
const b = { name: 'Company B', companyKey: 'ck_test_memory_log_b' };

it("answers a company's entries, an entry by ID and the addresses from the ring", async () => {
  const ring = ringOf([a, b]);
  const log = memoryLog(ring);
  await exchange(ring, { path: '/a1', ip: '203.0.113.10', trace: { company: 'Company A', operation: 'one' } });
  await exchange(ring, { path: '/b1', ip: '203.0.113.20', trace: { company: 'Company B' } });
  await exchange(ring, { path: '/a2', ip: '203.0.113.11', trace: { company: 'Company A', operation: 'two' } });
  expect((await log.list(a.companyKey)).map((item) => item.entry.path)).toEqual(['/a2', '/a1']);
  expect((await log.list(undefined, { operation: 'one' })).map((item) => item.entry.path)).toEqual(['/a1']);
  const [latest] = await log.list(undefined);
  expect((await log.get(latest!.entry.id))?.entry.path).toBe('/a2');
  expect(await log.get('req_999999')).toBeUndefined();
  expect([...(await log.addresses(a.companyKey))].sort()).toEqual(['203.0.113.10', '203.0.113.11']);
  expect([...(await log.addresses(undefined))].sort()).toEqual(['203.0.113.10', '203.0.113.11', '203.0.113.20']);
});

it('tells a listener of each new entry until it unsubscribes', async () => {
  const ring = ringOf([a]);
  const log = memoryLog(ring);
  const heard: (string | undefined)[] = [];
  const unsubscribe = log.subscribe((item) => heard.push(item.companyKey));
  await exchange(ring, { trace: { company: 'Company A' } });
  await exchange(ring, { trace: {} });
  unsubscribe();
  await exchange(ring, { trace: { company: 'Company A' } });
  expect(heard).toEqual([a.companyKey, undefined]);
});
