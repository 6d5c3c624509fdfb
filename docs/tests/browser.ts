// The built docs served on 127.0.0.1 and opened in Debian's chromium; every request that would leave
// 127.0.0.1 is aborted and recorded.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { keepOnLoopback, launchChromium } from '../../scripts/chromium.mjs';
import { serveDocs } from '../../scripts/serve-docs.mjs';

const distDir = fileURLToPath(new URL('../dist', import.meta.url));

export async function openDocs() {
  if (!existsSync(`${distDir}/index.html`)) throw new Error('docs/dist is not built: run npm run build');
  const docs = await serveDocs({ port: 0, dir: distDir });
  const browser = await launchChromium();
  const outside: string[] = [];
  const newPage = async (): Promise<Page> => {
    const page = await browser.newPage();
    await keepOnLoopback(page, outside);
    return page;
  };
  // One tab for a whole test file, which goes from page to page: a new page costs its own browser
  // context and renderer process, about a third of a second of CPU each (20 pages: 3 s in one tab, 8 to
  // 10 s in a tab each).
  let shared: Promise<Page> | undefined;
  const page = () => (shared ??= newPage());
  const close = async () => {
    await browser.close();
    await docs.stop();
  };
  return { url: docs.url, newPage, page, outside, close };
}
