// The request log as the one who started the sandbox reads it (hostile.test.ts has its format): a line's
// milliseconds are the request's own time, a path holding a company's callback key or the admin token is
// redacted too, and the applicant page of a session names the session's company.
import { describe, expect, it } from 'vitest';
import { until } from './callback-receiver.test-helper.js';
import { adminToken, callbackKeyA, keyA, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

/** A sandbox whose log lines are kept, and those lines. */
async function start() {
  const lines: string[] = [];
  const t = await startSandbox({ log: (line) => lines.push(line) });
  return { t, lines };
}

const msOf = (line: string) => Number(/ (\d+\.\d)ms /.exec(line)![1]);

describe('the request log', () => {
  it('gives each request the time it took: never more than the client waited', async () => {
    const { t, lines } = await start();
    for (let i = 0; i < 3; i++) {
      const before = performance.now();
      await fetch(`${t.url}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: keyA }) });
      await until(() => lines.length === i + 1, 'the line');
      const waited = performance.now() - before;
      expect(lines[i]).toMatch(/^POST \/begin begin 200 \d+\.\dms "Company A"$/);
      // toFixed(1) may round up by 0.05 ms.
      expect(msOf(lines[i]!)).toBeLessThanOrEqual(waited + 0.05);
    }
  });

  it('redacts a company\'s callback key and the admin token in a path', async () => {
    const { t, lines } = await start();
    await fetch(`${t.url}/x-${callbackKeyA}`, { method: 'POST' });
    await fetch(`${t.url}/y-${adminToken}`, { method: 'POST' });
    await until(() => lines.length === 2, 'the lines');
    expect(lines[0]).toMatch(/^POST \/x-\[redacted\] - 404 \d+\.\dms -$/);
    expect(lines[1]).toMatch(/^POST \/y-\[redacted\] - 404 \d+\.\dms -$/);
  });

  it('names the company of the session whose applicant page was asked for', async () => {
    const { t, lines } = await start();
    const { url } = await t.a.begin({});
    await fetch(url);
    await until(() => lines.length === 2, 'the lines');
    expect(lines[1]).toMatch(/^GET \/widget\/ applicantPage 200 \d+\.\dms "Company A"$/);
  });
});
