// The rate-limit page read whole, as a company and as the operator (admin token) see it: the intro, the
// headers (a "Companies" column for the operator only), an address's count, window and block times, the
// unblock button with the company it acts for (the operator's own reference, -1), and each empty state.
// pages.test.ts checks an address that is not blocked; rate-limit-admin-token.test.ts one no company logged.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consolePage } from './pages.test-helper.js';
import { adminToken, keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox({ rateLimit: 2 });
});
afterEach(() => t.close());

async function read(key: string, live = true) {
  const res = await consolePage(t.url, `/console/rate-limit`, key, live);
  expect(res.status).toBe(200);
  return res.text();
}
const begin = async (companyKey: string) =>
  (await fetch(`${t.url}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey }) })).status;

const intro = '<p>Each address may make a set number of requests a minute; over it, it gets 529 and stays blocked for the block time.</p>';
const operatorIntro = '<p>Every address the rate limiter tracks, whichever company its requests named (or none).</p>';
const head = (cols: string[]) => `<table aria-label="Addresses"><thead><tr>${cols.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead><tbody>\n`;
const companyCols = ['Address', 'Requests this minute', 'Window began', 'Blocked until', 'Unblock'];
const operatorCols = ['Address', 'Companies', 'Requests this minute', 'Window began', 'Blocked until', 'Unblock'];

describe('the rate-limit page', () => {
  it('says when there is no address, in words for a company and for the operator', async () => {
    expect(await read(keyA, false)).toContain(`<h1>Rate limit</h1>${intro}<div id="live" aria-live="polite">${head(companyCols)}\n</tbody></table><p>No addresses: none of your requests is in the log.</p></div></main>`);
    expect(await read(adminToken, false)).toContain(
      `<h1>Rate limit</h1>${intro}${operatorIntro}<div id="live" aria-live="polite">${head(operatorCols)}\n</tbody></table><p>No addresses: the rate limiter tracks none, and the log holds no request.</p></div></main>`,
    );
  });

  it('shows a blocked address with its count, window and block end, and an unblock button for the company or the operator', async () => {
    expect([await begin(keyA), await begin(keyB), await begin(keyA)]).toEqual([200, 200, 529]);
    t.clock.advance(1_000);
    const times = '<td><time datetime="2026-01-01T00:00:00.000Z">2026-01-01 00:00:00Z</time></td><td><time datetime="2026-01-01T01:00:00.000Z">2026-01-01 01:00:00Z</time></td>';
    const unblock = (c: number) =>
      `<td><form class="inline" method="post" action="/console/act/unblock"><input type="hidden" name="c" value="${c}"><input type="hidden" name="back" value="/console/rate-limit"><input type="hidden" name="ip" value="127.0.0.1"><button type="submit">Unblock 127.0.0.1</button></form></td>`;
    const row = (company: string, c: number) => `<tr data-testid="address-row"><td>127.0.0.1</td>${company}<td class="num">3</td>${times}${unblock(c)}</tr>\n</tbody></table>`;
    expect(await read(keyA)).toBe(head(companyCols) + row('', 0));
    // B's one request came from the same address: B sees it too, and unblocks it as itself (its place is 1).
    expect(await read(keyB)).toBe(head(companyCols) + row('', 1));
    expect(await read(adminToken)).toBe(head(operatorCols) + row('<td>Company A, Company B</td>', -1));
  });
});
