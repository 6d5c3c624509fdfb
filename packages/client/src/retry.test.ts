import { describe, expect, it } from 'vitest';
import { createClient, IdvNetworkError } from './index.js';
import { backoffDelay } from './retry.js';
import { baseUrl, fakeClock, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const failTwiceThen = (response: () => Response) =>
  fakeFetch((_r, i) => (i < 2 ? Promise.reject(new TypeError('fetch failed')) : response()));

describe('retries', () => {
  it('repeat a network failure of an operation the spec marks x-idempotent, with backoff', async () => {
    const clock = fakeClock();
    const { fetch, sent } = failTwiceThen(() => json({ result: [] }));
    const idv = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, random: () => 0.5, rateLimit: false, retry: { retries: 2, baseDelayMs: 100, maxDelayMs: 1000 } });
    await expect(idv.listBlacklistRecords()).resolves.toEqual({ result: [] });
    expect(sent).toHaveLength(3);
    expect(clock.sleeps).toEqual([50, 100]);
  });

  it('never repeat an operation that changes state', async () => {
    const clock = fakeClock();
    const { fetch, sent } = failTwiceThen(() => json({ result: 'r1' }));
    const idv = createClient({ companyKey: fakeKey, baseUrl, fetch, clock, rateLimit: false, retry: { retries: 5 } });
    const error = await idv.addBlacklistRecord({ query: { reason: 'r', lastName: 'Roe' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvNetworkError);
    expect(sent).toHaveLength(1);
  });

  it('never repeat an answer from the service, only the lack of one', async () => {
    const { fetch, sent } = fakeFetch(() => json({ argumentError: 'wrong-parameters' }, 400));
    const idv = createClient({ companyKey: fakeKey, baseUrl, fetch, clock: fakeClock(), rateLimit: false, retry: { retries: 5 } });
    await expect(idv.listBlacklistRecords()).rejects.toMatchObject({ code: 'wrong-parameters' });
    expect(sent).toHaveLength(1);
  });

  it('stop when the caller aborts', async () => {
    const controller = new AbortController();
    const { fetch, sent } = fakeFetch(() => {
      controller.abort();
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    });
    const idv = createClient({ companyKey: fakeKey, baseUrl, fetch, clock: fakeClock(), rateLimit: false, retry: { retries: 5 } });
    await expect(idv.listUsers(undefined, { signal: controller.signal })).rejects.toBeInstanceOf(IdvNetworkError);
    expect(sent).toHaveLength(1);
  });

  it('wait a full-jitter delay capped by the doubling base and the maximum', () => {
    const options = { retries: 5, baseDelayMs: 100, maxDelayMs: 500 };
    expect(backoffDelay(0, options, () => 0.999)).toBe(99);
    expect(backoffDelay(2, options, () => 0.999)).toBe(399);
    expect(backoffDelay(4, options, () => 0.999)).toBe(499);
    expect(backoffDelay(4, options, () => 0)).toBe(0);
  });
});
