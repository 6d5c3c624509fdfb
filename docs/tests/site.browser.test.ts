// The site around the reference, in Debian's chromium: every guide and package page renders and every
// link on it resolves (pages, files, heading anchors, and operations of the reference); the search finds a
// guide and an operation; the reference shows a TypeScript and a curl sample for a spread of operations;
// nothing is requested from outside 127.0.0.1.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodName } from '../code-samples.mjs';
import { pages } from '../site/pages.mjs';
import { openDocs } from './browser.js';

type Api = 'current' | 'legacy' | 'sandbox';
type Bundle = { paths: Record<string, { post: { operationId: string; summary: string } }> };
const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../..', import.meta.url));
const operationsOf = (api: Api) => Object.values((JSON.parse(readFileSync(require.resolve(`@idv-toolkit/openapi/${api}.json`), 'utf8')) as Bundle).paths).map((item) => item.post);
const apis: Api[] = ['current', 'legacy', 'sandbox'];
const sitePages = [{ output: 'index.html', title: 'Identity Verification Service' }, ...pages.filter((page) => existsSync(`${root}/${page.source}`))];

let docs: Awaited<ReturnType<typeof openDocs>>;
beforeAll(async () => {
  docs = await openDocs();
}, 60_000);
afterAll(async () => {
  await docs?.close();
});

const shown = (locator: Locator) => expect(locator.waitFor({ state: 'visible', timeout: 10_000 })).resolves.toBeUndefined();

/** The file's one tab, at `path`. */
async function open(path: string): Promise<Page> {
  const page = await docs.page();
  await page.goto(`${docs.url}/${path}`, { waitUntil: 'load' });
  return page;
}

// What each fetched page holds, fetched once for all the pages that link to it.
const fetched = new Map<string, Promise<{ status: number; text: string }>>();
const fetchOnce = (url: string) => {
  if (!fetched.has(url)) fetched.set(url, fetch(url).then(async (response) => ({ status: response.status, text: await response.text() })));
  return fetched.get(url)!;
};

describe.each(sitePages.map((page) => [page.output, page] as const))('the page %s', (output, meta) => {
  let page: Page;
  beforeAll(async () => {
    page = await open(output);
  });

  it('renders its heading, the navigation and the search box', async () => {
    await shown(page.locator('main h1').first());
    if (output !== 'index.html') await expect.poll(() => page.title()).toContain(meta.title);
    await shown(page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Getting started' }));
    await shown(page.getByRole('searchbox', { name: 'Search guides and operations' }));
  });

  it('has links that all resolve: pages, anchors, downloads and operations', async () => {
    const hrefs: string[] = await page.$$eval('a[href]', (links) => links.map((link) => (link as HTMLAnchorElement).href));
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of new Set(hrefs)) {
      const url = new URL(href);
      if (url.origin !== docs.url) {
        // Links out (a library's home page) are for the reader to follow, never loaded by the page.
        expect(url.protocol, href).toBe('https:');
        continue;
      }
      const target = await fetchOnce(`${url.origin}${url.pathname}`);
      expect(target.status, href).toBe(200);
      const fragment = decodeURIComponent(url.hash.slice(1));
      if (!fragment) continue;
      const api = /^\/(current|legacy|sandbox)\.html$/.exec(url.pathname)?.[1] as Api | undefined;
      if (api) {
        expect(fragment, href).toMatch(/^operation\//);
        expect(operationsOf(api).map((op) => op.operationId), href).toContain(fragment.slice('operation/'.length));
      } else {
        expect(target.text, `${href} has no element with that id`).toContain(`id="${fragment}"`);
      }
    }
  });
});

describe('the search', () => {
  let page: Page;
  beforeAll(async () => {
    page = await open('index.html');
  });

  const search = async (words: string) => {
    await page.getByRole('searchbox', { name: 'Search guides and operations' }).fill(words);
    return page.locator('.search .results a');
  };

  it('finds a guide, which opens', async () => {
    const results = await search('callbacks duplicates');
    await shown(results.first());
    await results.filter({ hasText: /^Callbacks/ }).first().click();
    await expect.poll(() => page.title()).toContain('Callbacks');
    await shown(page.locator('main h1', { hasText: 'Callbacks' }));
  });

  it('finds an operation by its summary or operationId, which opens in the reference', async () => {
    const [operation] = operationsOf('current').filter((op) => op.operationId === 'addBlacklistRecord');
    const results = await search('addBlacklistRecord');
    await shown(results.filter({ hasText: operation!.summary }).first());
    await (await search(operation!.summary.toLowerCase())).filter({ hasText: operation!.summary }).first().click();
    await expect.poll(() => page.url()).toContain('current.html');
    await shown(page.getByRole('heading', { name: operation!.summary }).first());
  });

  it('says when nothing is found', async () => {
    const results = page.locator('.search .results li');
    await page.goto(`${docs.url}/index.html`);
    await search('zzzz-no-such-word');
    await shown(results.filter({ hasText: 'Nothing found' }));
  });
});

describe.each(apis)('the %s reference', (api) => {
  // Every fourth operation, so that each run looks at a spread of operations and both encodings.
  const sample = operationsOf(api).filter((_op, i) => i % 4 === 0);
  let page: Page;
  beforeAll(async () => {
    page = await open(`${api}.html`);
  });

  it.each(sample.map((op) => [op.operationId, op] as const))('shows %s with a TypeScript and a curl sample', async (operationId, operation) => {
    await page.goto(`${docs.url}/${api}.html#operation/${operationId}`, { waitUntil: 'load' });
    await shown(page.getByRole('heading', { name: operation.summary }).first());
    // The operation's own section (Redoc renders only the sections near the one shown, and the first
    // language menu on the page may belong to the operation before, half scrolled away).
    const section = page.locator(`[data-section-id$="/${operationId.toLowerCase()}"]`);
    const code = section.locator('pre[data-testid="source-code"]').filter({ visible: true });
    // The language menu keeps the last choice across operations: pick each language in turn.
    for (const [name, text] of [['TypeScript', `.${methodName(api, operationId)}(`], ['curl', 'curl -X POST']]) {
      await chooseLanguage(section, name);
      await shown(code.filter({ hasText: text }).first());
    }
  }, 60_000);
});

/**
 * Opens the section's language menu and picks `name`. A click can miss the menu under load: it lands
 * before Redoc's dropdown reacts, or while the page scrolls to the operation and re-renders it, and the
 * menu stays shut (or a second click shuts it again). So the menu is opened until its item shows, a
 * bounded number of times.
 */
async function chooseLanguage(section: Locator, name: string) {
  const language = section.locator('[data-component-name="Dropdown/Dropdown"] > button[aria-haspopup="menu"]').filter({ visible: true, hasText: /^(TypeScript|curl|Payload)$/ }).first();
  // Redoc puts the open menu at the end of the page's body, outside the section.
  const item = section.page().getByRole('menuitem', { name, exact: true }).filter({ visible: true }).first();
  for (let attempt = 1; ; attempt += 1) {
    await shown(language);
    if ((await language.getAttribute('aria-expanded')) !== 'true') await language.click();
    try {
      await item.waitFor({ state: 'visible', timeout: 2_000 });
      break;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
  await item.dispatchEvent('click'); // the menu can open past the viewport's edge, where a real click is refused
}

describe('requests', () => {
  it('never left 127.0.0.1', () => {
    expect(docs.outside).toEqual([]);
  });
});
