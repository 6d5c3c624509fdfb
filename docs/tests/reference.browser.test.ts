import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDocs } from './browser.js';

type Bundle = { tags: { name: string }[]; paths: Record<string, { post: { operationId: string; summary: string } }> };
const require = createRequire(import.meta.url);
const bundle = (name: string): Bundle => JSON.parse(readFileSync(require.resolve(`@idv-toolkit/openapi/${name}.json`), 'utf8'));

let docs: Awaited<ReturnType<typeof openDocs>>;
beforeAll(async () => {
  docs = await openDocs();
}, 60_000);
afterAll(async () => {
  await docs?.close();
});

/** Resolves when the locator's element is visible; fails the test if it never becomes so. */
const shown = (locator: Locator) => expect(locator.waitFor({ state: 'visible', timeout: 10_000 })).resolves.toBeUndefined();

/** The file's one tab, at `path`. */
async function open(path: string): Promise<Page> {
  const page = await docs.page();
  await page.goto(`${docs.url}/${path}`, { waitUntil: 'networkidle' });
  return page;
}

describe('the landing page', () => {
  it('links to both API references, which open', async () => {
    const page = await open('');
    await page.getByRole('main').getByRole('link', { name: 'Current interface' }).click();
    await expect.poll(() => page.title()).toMatch(/Identity Verification Service API/);
    await page.goBack();
    await page.getByRole('main').getByRole('link', { name: 'Legacy interface' }).click();
    await expect.poll(() => page.title()).toMatch(/legacy interface/);
  });
});

describe.each(['current', 'legacy', 'sandbox'])('the %s API reference', (name) => {
  const { tags, paths } = bundle(name);
  const operations = Object.values(paths).map((item) => item.post);
  // Every fifth operation, so that each run looks at a spread of tags.
  const sample = operations.filter((_op, i) => i % 5 === 0);

  let page: Page;
  beforeAll(async () => {
    page = await open(`${name}.html`);
  });

  it('shows every tag in its navigation', async () => {
    for (const { name: tag } of tags) await shown(page.getByText(tag, { exact: true }).filter({ visible: true }).first());
  });

  it.each(sample.map((op) => [op.operationId, op.summary]))('finds and renders %s through its search', async (_id, summary) => {
    // The summary arrives whole, as pasted: typed key by key, each key made Redoc search and draw again.
    await (await openSearch(page)).fill(summary);
    const result = page.getByTestId('search-dialog').getByText(summary, { exact: true }).first();
    await shown(result);
    await result.click();
    await shown(page.getByRole('heading', { name: summary }).first());
  });

  it('loaded nothing from outside 127.0.0.1', () => {
    expect(docs.outside).toEqual([]);
  });
});

/**
 * Opens the reference's search dialog and gives its field. A click can miss under load (it lands before
 * Redoc's page reacts, or while it re-renders): so the search is opened until its field shows, a bounded
 * number of times.
 */
async function openSearch(page: Page): Promise<Locator> {
  const field = page.getByTestId('search-dialog').getByPlaceholder('Search docs');
  for (let attempt = 1; ; attempt += 1) {
    if (!(await field.isVisible())) await page.getByText('Search', { exact: false }).first().click();
    try {
      await field.waitFor({ state: 'visible', timeout: 2_000 });
      break;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
  return field;
}
