// Rate limit: per-address counters and blocks, with "unblock".
import type { Sandbox } from '@idv-toolkit/types';
import type { Company } from '../companies.js';
import { html, time } from './html.js';
import { action, companyCell, companyHead } from './layout.js';
import type { Page, View } from './view.js';

export async function rateLimitPage(view: View): Promise<Page> {
  const rows: { e: Sandbox.SandboxRateLimitEntry; company: Company }[] = [];
  for (const company of view.viewer.companies) for (const e of (await view.call(company, 'sandboxListRateLimit')) as Sandbox.SandboxRateLimitEntry[]) rows.push({ e, company });
  const live = html`<table aria-label="Addresses"><thead><tr><th scope="col">Address</th>${companyHead(view.viewer)}<th scope="col">Requests this minute</th><th scope="col">Window began</th><th scope="col">Blocked until</th><th scope="col">Unblock</th></tr></thead><tbody>
${rows.map(({ e, company }) => html`<tr data-testid="address-row"><td>${e.ip}</td>${companyCell(view.viewer, company.name)}<td class="num">${e.requests}</td><td>${time(e.windowStartedAt)}</td><td>${e.blockedUntil ? time(e.blockedUntil) : 'not blocked'}</td><td>${e.blockedUntil ? action('unblock', view.ref(company), '/console/rate-limit', { ip: e.ip }, `Unblock ${e.ip}`) : ''}</td></tr>`)}
</tbody></table>${rows.length === 0 ? html`<p>No addresses: none of your requests is in the log.</p>` : ''}`;
  return { title: 'Rate limit', body: html`<p>Each address may make a set number of requests a minute; over it, it gets 529 and stays blocked for the block time.</p><div id="live" aria-live="polite">${live}</div>`, live };
}
