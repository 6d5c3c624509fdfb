// The console in a real browser (Debian's chromium): sign in, watch a client's request arrive live with
// its bodies redacted, finish a session and see its callback reach a receiver, resend it, unblock an
// address, keep two companies apart, and pass axe-core on every page; nothing leaves 127.0.0.1.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepOnLoopback, launchChromium } from '../../../../scripts/chromium.mjs';
import { demoSessionConfigs } from '../companies.js';
import { adminToken, callbackKeyA, keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
// `CONSOLE_SCREENSHOTS=1` writes the README's screenshots (the pages as this run shows them).
const screenshots = process.env.CONSOLE_SCREENSHOTS ? join(dirname(fileURLToPath(import.meta.url)), '../../screenshots') : undefined;

let browser: Browser;
let t: Awaited<ReturnType<typeof startTestSandbox>>;
let receiver: Server;
const received: Record<string, unknown>[] = [];
const outside: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callbacks`;
  [browser, t] = await Promise.all([
    launchChromium(),
    startTestSandbox({
      config: {
        companies: [
          { name: 'Company A', companyKey: keyA, callbackApiKey: callbackKeyA, callbackUrl, sessionConfigs: demoSessionConfigs },
          { name: 'Company B', companyKey: keyB, screeningPaid: false, trustedDatabase: false, registries: [] },
        ],
      },
    }),
  ]);
  if (screenshots) mkdirSync(screenshots, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  receiver?.close();
});

async function signedIn(key: string, options: { bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  await keepOnLoopback(page, outside);
  await page.goto(`${t.url}/console/`);
  await page.getByLabel('Company key or admin token').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Requests' }).waitFor();
  return { context, page };
}

const shot = async (page: Page, name: string) => {
  if (screenshots) await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: false });
};

describe('the console in a browser', () => {
  let a: { context: BrowserContext; page: Page };
  let sessionId: string;

  beforeAll(async () => {
    a = await signedIn(keyA);
  });
  afterAll(() => a?.context.close());

  it('signs in with the key in an HttpOnly cookie that scripts cannot read, and never shows the key', async () => {
    const [cookie] = await a.context.cookies();
    expect(cookie).toMatchObject({ name: 'idv_console', httpOnly: true, sameSite: 'Strict', path: '/console' });
    expect(await a.page.evaluate(() => document.cookie)).toBe('');
    expect(a.page.url()).toBe(`${t.url}/console/requests`);
    expect(await a.page.content()).not.toContain(keyA);
  });

  it('shows a request made by the client within a second, with its bodies redacted', async () => {
    const begun = await t.a.begin({ configId: 'cfg-kyc-standard-01', name: 'Browser test' });
    sessionId = begun.id;
    // Counted from the answer: the second is the console's (its live update), not the client call's, which
    // a loaded test machine may make slow on its own.
    const started = Date.now();
    const row = a.page.getByTestId('request-row').filter({ hasText: '/begin' });
    await row.waitFor({ timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);
    await shot(a.page, 'console-requests');
    await row.getByRole('link', { name: '/begin' }).click();
    const request = await a.page.getByTestId('request-body').textContent();
    expect(request).toContain('"companyKey": "[redacted]"');
    expect(request).toContain('Browser test');
    expect(await a.page.getByTestId('response-body').textContent()).toContain(sessionId);
    expect(await a.page.locator('#client-call').textContent()).toBe(`await idv.begin(${JSON.stringify({ configId: 'cfg-kyc-standard-01', name: 'Browser test' }, null, 2)});`);
    expect(await a.page.locator('#curl').textContent()).toContain(`"companyKey":"'"$IDV_COMPANY_KEY"'"`);
    expect(await a.page.content()).not.toContain(keyA);
    await shot(a.page, 'console-request');
  });

  it('finishes a session from its page; the session-change callback reaches the receiver and shows up', async () => {
    await a.page.goto(`${t.url}/console/sessions/${sessionId}`);
    await a.page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => a.page.getByTestId('session-status').textContent()).toBe('approved');
    await expect.poll(() => received.filter((c) => c.sessionId === sessionId).length, { timeout: 5000 }).toBe(1);
    expect(received[0]).toMatchObject({ callbackApiKey: callbackKeyA, type: 'session-change', sessionId, result: 'APPROVED' });
    // Delivered after the page was drawn: it arrives by the live update, without a reload.
    await a.page.getByTestId('session-callback').filter({ hasText: 'delivered' }).waitFor({ timeout: 5000 });
    expect(await a.page.getByTestId('session-callback').first().textContent()).toContain('[redacted]');
    // Its media, inline, each from the API's own media operation.
    for (const alt of ['Front of the identity document', 'Back of the identity document', 'Face photo from the identity document', "The applicant's selfie"]) {
      await expect.poll(() => a.page.getByAltText(alt).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { message: alt }).toBeGreaterThan(0);
    }
    const pdf = await a.page.request.get(await a.page.getByRole('link', { name: 'The session as PDF' }).evaluate((link: HTMLAnchorElement) => link.href));
    expect([pdf.status(), pdf.headers()['content-type'], (await pdf.body()).subarray(0, 4).toString()]).toEqual([200, 'application/pdf', '%PDF']);
    const video = await a.page.request.get(await a.page.locator('video').evaluate((v: HTMLVideoElement) => v.src));
    expect([video.status(), video.headers()['content-type']]).toEqual([200, 'video/mp4']);
    await shot(a.page, 'console-session');
  });

  it('resends a callback', async () => {
    await a.page.goto(`${t.url}/console/callbacks`);
    await a.page.getByTestId('callback-row').first().getByRole('button', { name: 'Resend' }).click();
    await a.page.getByRole('status').filter({ hasText: 'Callback queued again' }).waitFor();
    await expect.poll(() => received.filter((c) => c.sessionId === sessionId).length, { timeout: 5000 }).toBe(2);
    await expect.poll(() => a.page.getByTestId('callback-row').count(), { timeout: 3000 }).toBe(2);
    await shot(a.page, 'console-callbacks');
  });

  it('shows a second company none of the first company\'s data', async () => {
    const b = await signedIn(keyB);
    try {
      expect(await b.page.getByTestId('request-row').count()).toBe(0);
      for (const path of ['sessions', 'callbacks', 'rate-limit', 'blacklist', 'users']) {
        await b.page.goto(`${t.url}/console/${path}`);
        const text = await b.page.locator('main').textContent();
        expect(text).not.toContain(sessionId);
        expect(text).not.toContain('127.0.0.1');
      }
      const [request] = t.sandbox.companies.get(keyA) ? (await t.control.listRequests({ operation: 'begin' })).result : [];
      expect((await b.page.goto(`${t.url}/console/requests/${request!.id}`))!.status()).toBe(404);
      expect((await b.page.goto(`${t.url}/console/sessions/${sessionId}`))!.status()).toBe(404);
      expect((await b.page.goto(`${t.url}/console/media/0/${sessionId}/pdf`))!.status()).toBe(404);
    } finally {
      await b.context.close();
    }
  });

  it('shows the operator (admin token) every company', async () => {
    await t.b.begin({});
    const admin = await signedIn(adminToken);
    try {
      const rows = admin.page.getByTestId('request-row');
      expect(await rows.filter({ hasText: 'Company A' }).count()).toBeGreaterThan(0);
      expect(await rows.filter({ hasText: 'Company B' }).count()).toBeGreaterThan(0);
    } finally {
      await admin.context.close();
    }
  });

  it('adds and removes a blacklist record, and shows the company\'s sources', async () => {
    await a.page.goto(`${t.url}/console/blacklist`);
    await a.page.getByLabel('Reason').fill('Fraud (console test)');
    await a.page.getByLabel('Document number').fill('DOC-CONSOLE-1');
    await a.page.getByRole('button', { name: 'Add' }).click();
    await a.page.getByRole('status').filter({ hasText: 'added' }).waitFor();
    const row = a.page.getByTestId('blacklist-row').filter({ hasText: 'DOC-CONSOLE-1' });
    await row.waitFor();
    expect((await t.a.listBlacklistRecords({ query: {} })).result.data.map((r) => r.documentNumber)).toContain('DOC-CONSOLE-1');
    await row.getByRole('button', { name: 'Remove' }).click();
    await a.page.getByRole('status').filter({ hasText: 'Record removed' }).waitFor();
    expect((await t.a.listBlacklistRecords({ query: {} })).result.data).toEqual([]);
    await a.page.goto(`${t.url}/console/monitoring`);
    expect(await a.page.getByRole('table', { name: 'Screening and check sources' }).textContent()).toContain('Company A');
  });

  it('passes axe-core on every page with no serious or critical violation', async () => {
    // axe is injected as a script, which the console's Content-Security-Policy forbids: this context bypasses it.
    const { context, page } = await signedIn(keyA, { bypassCSP: true });
    const [request] = (await t.control.listRequests({ operation: 'begin' })).result;
    const paths = ['requests', `requests/${request!.id}`, 'sessions', `sessions/${sessionId}`, 'callbacks', 'rate-limit', 'blacklist', 'users', 'monitoring'];
    const found: Record<string, string[]> = {};
    try {
      for (const path of [...paths, 'sign-in']) {
        if (path === 'sign-in') {
          await context.clearCookies();
          await page.goto(`${t.url}/console/`);
        } else await page.goto(`${t.url}/console/${path}`);
        await page.evaluate(axeSource);
        const violations: { id: string; impact: string }[] = await page.evaluate(async () => (await (window as any).axe.run(document, { resultTypes: ['violations'] })).violations);
        const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
        if (serious.length) found[path] = serious;
      }
      expect(found).toEqual({});
    } finally {
      await context.close();
    }
  });

  it('sent no request anywhere but 127.0.0.1', () => {
    expect(outside).toEqual([]);
  });
});

describe('the rate-limit page', () => {
  it('unblocks a blocked address', async () => {
    const limited = await startTestSandbox({ rateLimit: 2 });
    const context = await browser.newContext();
    try {
      await limited.a.begin({});
      await limited.a.begin({});
      await expect(limited.a.begin({})).rejects.toThrow();
      const page = await context.newPage();
      await keepOnLoopback(page, outside);
      await page.goto(`${limited.url}/console/`);
      await page.getByLabel('Company key or admin token').fill(keyA);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Requests' }).waitFor();
      await page.goto(`${limited.url}/console/rate-limit`);
      const row = page.getByTestId('address-row').filter({ hasText: '127.0.0.1' });
      expect(await row.textContent()).not.toContain('not blocked');
      await shot(page, 'console-rate-limit');
      await row.getByRole('button', { name: 'Unblock 127.0.0.1' }).click();
      await page.getByRole('status').filter({ hasText: '127.0.0.1 unblocked' }).waitFor();
      expect(await page.getByTestId('address-row').first().textContent()).toContain('not blocked');
      await expect(limited.a.begin({})).resolves.toMatchObject({ id: expect.any(String) });
      expect(outside).toEqual([]);
    } finally {
      await context.close();
      await limited.close();
    }
  });
});
