// The rate limit is per address, not per company: the operator (the admin token in place of a company key,
// openapi/sandbox list-rate-limit and unblock-address) sees every address the limiter tracks and unblocks
// any, among them an address whose requests named no company, which no company's log holds, and one the
// log has forgotten; a company still sees and unblocks only the addresses of its own requests. With the
// memory limiter and log, and the PostgreSQL ones. The operator's requests are the handlers' here, run as
// the operator of services.ts, as the server runs a request whose admin token it has checked.
import { describe, expect, it } from 'vitest';
import type { Context } from '../context.js';
import { consoleRateLimitHandlers } from '../handlers/console-rate-limit.js';
import { until } from '../callback-receiver.test-helper.js';
import { adminToken, keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';
import { blockedStrangerSandboxes, begin, flood, nobody, stores, stranger } from './rate-limit-operator.test-helper.js';
import { registerServices, servicesOf } from './services.js';

type Started = Awaited<ReturnType<typeof startTestSandbox>>;

describe.each(stores)('the rate-limit operations for the operator (%s)', (_store, open) => {
  const blockedStranger = blockedStrangerSandboxes(open);
  /** Runs a rate-limit handler as the operator of the sandbox's services. */
  async function asOperator(started: Started, operationId: 'sandboxListRateLimit' | 'sandboxUnblockAddress', fields: Record<string, unknown> = {}) {
    const operator = registerServices([], servicesOf(started.sandbox.companies.get(keyA)!));
    const reply = await consoleRateLimitHandlers[operationId]!({ company: operator, body: { adminToken, ...fields } } as unknown as Context);
    return ('json' in reply ? reply.json : undefined) as { result: any };
  }

  it('lists every tracked address to the operator, one no company logged among them; to a company only its own', async () => {
    const started = await blockedStranger();
    const everything = (await asOperator(started, 'sandboxListRateLimit')).result as { ip: string }[];
    expect(everything.map((e) => e.ip)).toEqual(['127.0.0.1', stranger]);
    expect(everything[1]).toMatchObject({ ip: stranger, requests: 3, windowStartedAt: expect.any(String), blockedUntil: expect.any(String) });
    // The request log has the company's request after it answered (in a batch on PostgreSQL).
    await until(async () => (await started.control.listRateLimit({})).result.length === 1, "company A's logged address");
    expect((await started.control.listRateLimit({})).result.map((e) => e.ip)).toEqual(['127.0.0.1']);
    expect((await started.controlB.listRateLimit({})).result).toEqual([]);
  });

  it('lists to the operator a blocked address the request log no longer holds (it keeps the latest 1,000 requests)', async () => {
    const started = await blockedStranger();
    const log = servicesOf(started.sandbox.companies.get(keyA)!).ring;
    await flood(started.url, '127.0.0.3', 1_000);
    await until(async () => !(await log.addresses(undefined)).has(stranger), 'the log to forget 127.0.0.2');
    const listed = (await asOperator(started, 'sandboxListRateLimit')).result as { ip: string }[];
    expect(listed.find((e) => e.ip === stranger)).toMatchObject({ requests: 3, blockedUntil: expect.any(String) });
    expect(listed.find((e) => e.ip === '127.0.0.3')).toMatchObject({ requests: 3, blockedUntil: expect.any(String) });
  });

  it('lets the operator unblock an address no company logged, and a company not', async () => {
    const started = await blockedStranger();
    expect(await started.sandbox.invoke('sandboxUnblockAddress', { companyKey: keyA, ip: stranger })).toEqual({ status: 400, json: { argumentError: 'not-found' } });
    expect(await begin(started.url, stranger, nobody)).toBe(529);
    expect(await asOperator(started, 'sandboxUnblockAddress', { ip: stranger })).toEqual({ result: true });
    expect((await asOperator(started, 'sandboxListRateLimit')).result.find((e: { ip: string }) => e.ip === stranger)).toMatchObject({ requests: 0, blockedUntil: null });
    expect(await begin(started.url, stranger, nobody)).toBe(400);
  });
});

describe('the rate-limit operations with neither a company key nor an admin token', () => {
  it('answer wrong-parameters', async () => {
    const t = await startTestSandbox();
    try {
      expect(await t.sandbox.invoke('sandboxListRateLimit', {})).toEqual({ status: 400, json: { argumentError: 'wrong-parameters' } });
      expect(await t.sandbox.invoke('sandboxUnblockAddress', { ip: stranger })).toEqual({ status: 400, json: { argumentError: 'wrong-parameters' } });
    } finally {
      await t.close();
    }
  });
});

describe("the console's rate-limit page for a company", () => {
  it('shows only the addresses of its own requests', async () => {
    const t = await startTestSandbox({ rateLimit: 2 });
    try {
      await begin(t.url, stranger, nobody);
      await begin(t.url, '127.0.0.1', keyA);
      const page = async (key: string) => {
        const signIn = await fetch(`${t.url}/console/sign-in`, { method: 'POST', body: new URLSearchParams({ key }), redirect: 'manual' });
        return (await fetch(`${t.url}/console/rate-limit`, { headers: { cookie: signIn.headers.get('set-cookie')!.split(';')[0]! } })).text();
      };
      const text = await page(keyA);
      expect(text).toContain('<td>127.0.0.1</td>');
      expect(text).not.toContain(stranger);
      expect(await page(keyB)).toContain('No addresses: none of your requests is in the log.');
    } finally {
      await t.close();
    }
  });
});
