// Debian's chromium driven by playwright-core, and the built docs served on 127.0.0.1. The test installs
// nothing: scripts/install-browser.sh puts chromium at /usr/bin/chromium (or set CHROMIUM_PATH).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { serveDocs } from '../../scripts/serve-docs.mjs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const distDir = fileURLToPath(new URL('../dist', import.meta.url));

export async function openDocs() {
  if (!existsSync(chromiumPath)) throw new Error(`No chromium at ${chromiumPath}: run scripts/install-browser.sh`);
  if (!existsSync(`${distDir}/index.html`)) throw new Error('docs/dist is not built: run npm run build');
  const docs = await serveDocs({ port: 0, dir: distDir });
  const browser: Browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  /** Every request a page made to anywhere but 127.0.0.1; each is aborted. */
  const outside: string[] = [];
  const newPage = async (): Promise<Page> => {
    const page = await browser.newPage();
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (/^https?:$/.test(url.protocol) && url.hostname !== '127.0.0.1') {
        outside.push(url.href);
        return route.abort();
      }
      return route.continue();
    });
    return page;
  };
  const close = async () => {
    await browser.close();
    await docs.stop();
  };
  return { url: docs.url, newPage, outside, close };
}
