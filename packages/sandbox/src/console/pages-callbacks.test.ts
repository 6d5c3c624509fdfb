// The callbacks page read whole, as a company and as the operator (admin token) see it, for an event
// whose two attempts found no answer (the receiver closes the connection): each attempt's row, its
// outcome, "—" for a receiver status never received, the resend button on the first attempt only, the
// delivery line of a company with and without a callback URL, and the page's title. The IDs and the
// receiver's port vary, so they are replaced by <evt>, <sess> and <port>. pages.test.ts checks a
// delivered attempt and the pause button's states.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminToken, keyA, keyB, type startTestSandbox } from '../sandbox.test-helper.js';
import { consolePage, startWithReceiver } from './pages.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
let close: () => Promise<void>;
beforeEach(async () => {
  // The receiver closes the connection: two attempts a millisecond apart, so that the event is given up within the test.
  ({ t, close } = await startWithReceiver((req) => req.socket.destroy(), { deliveryPolicy: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 5_000 } }));
});
afterEach(() => close());

async function read(key: string, live = true) {
  const res = await consolePage(t.url, `/console/callbacks`, key, live);
  expect(res.status).toBe(200);
  return (await res.text()).replace(/\bevt_[0-9a-f]{32}\b/g, '<evt>').replace(/\bsess_[0-9a-f]{32}\b/g, '<sess>').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
}

const head = (company: string[]) =>
  `<table aria-label="Delivery attempts, newest first"><thead><tr>${['Sent', ...company, 'Event', 'Attempt', 'Type', 'Session', 'Outcome', 'Receiver status', 'Payload', 'Resend'].map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead><tbody>\n`;
const deliveryA = (prefix: string) =>
  `<p data-testid="delivery">${prefix}delivery to <code>http://127.0.0.1:<port>/cb</code> is <strong>on</strong> <form class="inline" method="post" action="/console/act/delivery"><input type="hidden" name="c" value="0"><input type="hidden" name="back" value="/console/callbacks"><input type="hidden" name="paused" value="true"><button type="submit" class="secondary">Pause delivery</button></form></p>`;
const payload = '<details><summary>Payload</summary><pre tabindex="0">{\n  &#34;callbackApiKey&#34;: &#34;[redacted]&#34;,\n  &#34;type&#34;: &#34;session-change&#34;,\n  &#34;sessionId&#34;: &#34;<sess>&#34;,\n  &#34;result&#34;: &#34;APPROVED&#34;\n}</pre></details>';
const resend =
  '<form class="inline" method="post" action="/console/act/resend"><input type="hidden" name="c" value="0"><input type="hidden" name="back" value="/console/callbacks"><input type="hidden" name="eventId" value="<evt>"><button type="submit" class="secondary">Resend</button></form>';
const row = (company: string, attempt: number) =>
  `<tr data-testid="callback-row"><td><time datetime="2026-01-01T00:00:00.000Z">2026-01-01 00:00:00Z</time></td>${company}<td><evt></td><td>${attempt}</td><td>session-change</td><td><a href="/console/sessions/<sess>"><sess></a></td><td class="failed">failed</td><td>—</td><td>${payload}</td><td>${attempt === 1 ? resend : ''}</td></tr>`;

describe('the callbacks page', () => {
  it('shows every attempt of an event that found no answer, a resend button on the first only, to the company and the operator', async () => {
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    await t.sandbox.dispatcher.idle();
    const a = await read(keyA, false);
    expect(a).toContain('<title>Callbacks · Sandbox console</title>');
    expect(a).toContain(`<h1>Callbacks</h1><div id="live" aria-live="polite">${deliveryA('')}${head([])}${row('', 1)}${row('', 2)}\n</tbody></table></div></main>`);
    expect(await read(keyB)).toBe(`<p data-testid="delivery">no callback URL: no callbacks are sent</p>${head([])}\n</tbody></table><p>No callbacks sent yet.</p>`);
    expect(await read(adminToken)).toBe(
      `${deliveryA('Company A: ')}<p data-testid="delivery">Company B: no callback URL: no callbacks are sent</p>${head(['Company'])}${row('<td>Company A</td>', 1)}${row('<td>Company A</td>', 2)}\n</tbody></table>`,
    );
  });
});
