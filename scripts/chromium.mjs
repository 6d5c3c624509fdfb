// Debian's chromium, driven by playwright-core, for the browser tests. Nothing is downloaded:
// scripts/install-browser.sh puts chromium at /usr/bin/chromium (or set CHROMIUM_PATH).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium() {
  if (!existsSync(chromiumPath)) throw new Error(`No chromium at ${chromiumPath}: run scripts/install-browser.sh`);
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Aborts, and records in `outside`, every request of a page to anywhere but 127.0.0.1. */
export async function keepOnLoopback(page, outside) {
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (/^https?:$/.test(url.protocol) && url.hostname !== '127.0.0.1') {
      outside.push(url.href);
      return route.abort();
    }
    return route.continue();
  });
}
