// The applicant page in a real browser (Debian's chromium): a tester opens the session's URL, sees its
// steps, and finishes it; the result is then what the API returns.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepOnLoopback, launchChromium } from '../../../scripts/chromium.mjs';
import { startTestSandbox } from './sandbox.test-helper.js';

let browser: Browser;
let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeAll(async () => {
  [browser, t] = await Promise.all([launchChromium(), startTestSandbox()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the applicant page in a browser', () => {
  it.each([
    ['Approve', 'approved', 'Approved'],
    ['Reject', 'rejected', 'Rejected'],
    ['Send to manual check', undefined, 'Waiting for a manual check'],
  ] as const)('%s finishes the session', async (button, kycResult, status) => {
    const { id, url } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    const page = await browser.newPage();
    const outside: string[] = [];
    await keepOnLoopback(page, outside);
    await page.goto(url);
    expect(await page.getByRole('listitem').allTextContents()).toEqual(['Identity document (identity-document)', 'Liveness (liveness)', 'Documents (user-questionnaire)']);
    await page.getByRole('button', { name: button }).click();
    await page.getByRole('status').waitFor();
    expect(await page.getByTestId('status').textContent()).toBe(status);
    expect((await t.legacyA.getResult({ session_token: id })).result).toBe(kycResult);
    expect(outside).toEqual([]);
    await page.close();
  });
});
