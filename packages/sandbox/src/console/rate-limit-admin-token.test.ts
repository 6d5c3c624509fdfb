// The operator over HTTP: the admin token in place of a company key on list-rate-limit and
// unblock-address (openapi/sandbox), as a script sends it and as the console's operator session uses it;
// a wrong token gets 400 invalid-admin-token and changes nothing. With the memory limiter and the
// PostgreSQL one (rate-limit-operator.test.ts has the handlers' answers and a company's view).
import { createSandboxClient } from '@idv-toolkit/client';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../callback-receiver.test-helper.js';
import { adminToken, keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';
import { blockedStrangerSandboxes, begin, nobody, stores, stranger } from './rate-limit-operator.test-helper.js';

type Started = Awaited<ReturnType<typeof startTestSandbox>>;

describe.each(stores)('the admin token on the rate-limit operations (%s)', (_store, open) => {
  const blockedStranger = blockedStrangerSandboxes(open);

  it('lists every tracked address and unblocks one no company logged; the company key sent along is ignored', async () => {
    const started = await blockedStranger();
    // The client sends company A's key along: the admin token wins, as for reset.
    const operator = createSandboxClient({ baseUrl: started.url, companyKey: keyA, rateLimit: false, retry: false });
    const everything = (await operator.listRateLimit({ adminToken })).result;
    expect(everything.map((e) => e.ip)).toEqual(['127.0.0.1', stranger]);
    expect(everything[1]).toMatchObject({ ip: stranger, requests: 3, blockedUntil: expect.any(String) });
    await until(async () => (await started.control.listRateLimit({})).result.length === 1, "company A's logged address");
    expect((await started.control.listRateLimit({})).result.map((e) => e.ip)).toEqual(['127.0.0.1']);
    expect(await operator.unblockAddress({ adminToken, ip: stranger })).toEqual({ result: true });
    expect((await operator.listRateLimit({ adminToken })).result.find((e) => e.ip === stranger)).toMatchObject({ requests: 0, blockedUntil: null });
    expect(await begin(started.url, stranger, nobody)).toBe(400);
  });

  it('refuses a wrong admin token with invalid-admin-token, with or without a company key, and lifts nothing', async () => {
    const started = await blockedStranger();
    for (const [operation, fields] of [['sandboxListRateLimit', {}], ['sandboxUnblockAddress', { ip: stranger }]] as const) {
      expect(await started.sandbox.invoke(operation, { ...fields, adminToken: 'adm_test_wrong_0000' }), operation).toEqual({ status: 400, json: { argumentError: 'invalid-admin-token' } });
      expect(await started.sandbox.invoke(operation, { ...fields, companyKey: keyB, adminToken: 'adm_test_wrong_0000' }), operation).toEqual({ status: 400, json: { argumentError: 'invalid-admin-token' } });
    }
    expect(await begin(started.url, stranger, nobody)).toBe(529);
  });
});

describe('the rate-limit operations of a sandbox without --admin-token', () => {
  it('refuse any admin token over HTTP with 400 invalid-admin-token', async () => {
    const t = await startTestSandbox({ adminToken: undefined });
    try {
      for (const path of ['list-rate-limit', 'unblock-address']) {
        const res = await fetch(`${t.url}/sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ adminToken, ip: stranger }) });
        expect([path, res.status, await res.json()]).toEqual([path, 400, { argumentError: 'invalid-admin-token' }]);
      }
    } finally {
      await t.close();
    }
  });
});

describe("the console's rate-limit page for the operator", () => {
  let t: Started | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const cookieOf = async (key: string) => {
    const res = await fetch(`${t!.url}/console/sign-in`, { method: 'POST', body: new URLSearchParams({ key }), redirect: 'manual' });
    return res.headers.get('set-cookie')!.split(';')[0]!;
  };
  const page = async (cookie: string) => (await fetch(`${t!.url}/console/rate-limit`, { headers: { cookie } })).text();
  const unblock = (cookie: string, c: string) =>
    fetch(`${t!.url}/console/act/unblock`, { method: 'POST', headers: { cookie }, body: new URLSearchParams({ c, back: '/console/rate-limit', ip: stranger }), redirect: 'manual' });

  it('shows every tracked address with the companies whose requests came from it, and unblocks one no company logged', async () => {
    t = await startTestSandbox({ rateLimit: 2 });
    await Promise.all([begin(t.url, stranger, nobody), begin(t.url, '127.0.0.1', keyA), begin(t.url, '127.0.0.1', keyB)]);
    expect(await begin(t.url, stranger, nobody)).toBe(400);
    expect(await begin(t.url, stranger, nobody)).toBe(529);
    const operator = await cookieOf(adminToken);
    const rows = [...(await page(operator)).matchAll(/<tr data-testid="address-row">(.*?)<\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^\|127\.0\.0\.1\|Company A, Company B\|2\|.*\|not blocked\|$/);
    expect(rows[1]).toMatch(/^\|127\.0\.0\.2\|no company\|3\|.*\|Unblock 127\.0\.0\.2\|$/);
    // A company's session cannot use the operator's form reference.
    const refused = await unblock(await cookieOf(keyA), '-1');
    expect(decodeURIComponent(refused.headers.get('location')!)).toContain('That is not your company.');
    expect(await begin(t.url, stranger, nobody)).toBe(529);
    const done = await unblock(operator, '-1');
    expect(done.status).toBe(303);
    expect(decodeURIComponent(done.headers.get('location')!)).toBe('/console/rate-limit?notice=127.0.0.2 unblocked.');
    expect(await page(operator)).not.toContain('Unblock 127.0.0.2');
    expect(await begin(t.url, stranger, nobody)).toBe(400);
  });
});
