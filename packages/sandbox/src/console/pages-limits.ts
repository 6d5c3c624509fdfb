// Rate limit: per-address counters and blocks, with "unblock".
import type { Sandbox } from '@idv-toolkit/types';
import type { Company } from '../companies.js';
import { html, time, type Markup } from './html.js';
import { action, companyCell, companyHead } from './layout.js';
import type { Page, View } from './view.js';

/** The form reference of the operator's actions (no company's place in `all`): app.ts runs them with the admin token. */
export const operatorRef = -1;
/** Runs a control operation with the admin token in place of a company key (the operator's session only). */
export type OperatorCall = (operationId: string, fields?: Record<string, unknown>) => Promise<any>;

type Entry = Sandbox.SandboxRateLimitEntry;
const intro = html`<p>Each address may make a set number of requests a minute; over it, it gets 529 and stays blocked for the block time.</p>`;
const cells = (e: Entry) => html`<td class="num">${e.requests}</td><td>${time(e.windowStartedAt)}</td><td>${e.blockedUntil ? time(e.blockedUntil) : 'not blocked'}</td>`;

export async function rateLimitPage(view: View, operator?: OperatorCall): Promise<Page> {
  if (operator) return operatorPage(view, operator);
  const rows: { e: Entry; company: Company }[] = [];
  for (const company of view.viewer.companies) for (const e of (await view.call(company, 'sandboxListRateLimit')) as Entry[]) rows.push({ e, company });
  const live = html`<table aria-label="Addresses"><thead><tr><th scope="col">Address</th>${companyHead(view.viewer)}<th scope="col">Requests this minute</th><th scope="col">Window began</th><th scope="col">Blocked until</th><th scope="col">Unblock</th></tr></thead><tbody>
${rows.map(({ e, company }) => html`<tr data-testid="address-row"><td>${e.ip}</td>${companyCell(view.viewer, company.name)}${cells(e)}<td>${e.blockedUntil ? action('unblock', view.ref(company), '/console/rate-limit', { ip: e.ip }, `Unblock ${e.ip}`) : ''}</td></tr>`)}
</tbody></table>${rows.length === 0 ? html`<p>No addresses: none of your requests is in the log.</p>` : ''}`;
  return { title: 'Rate limit', body: html`${intro}<div id="live" aria-live="polite">${live}</div>`, live };
}

/**
 * The operator's page: one row per address the limiter tracks or the log holds (one admin-token call),
 * with the companies whose logged requests came from it (a call per company, as each would see it).
 */
async function operatorPage(view: View, operator: OperatorCall): Promise<Page> {
  const entries = (await operator('sandboxListRateLimit')) as Entry[];
  const seenBy = new Map<string, string[]>();
  for (const company of view.all) for (const e of (await view.call(company, 'sandboxListRateLimit')) as Entry[]) seenBy.set(e.ip, [...(seenBy.get(e.ip) ?? []), company.name]);
  const companies = (ip: string): Markup => html`${seenBy.get(ip)?.join(', ') ?? 'no company'}`;
  const live = html`<table aria-label="Addresses"><thead><tr><th scope="col">Address</th><th scope="col">Companies</th><th scope="col">Requests this minute</th><th scope="col">Window began</th><th scope="col">Blocked until</th><th scope="col">Unblock</th></tr></thead><tbody>
${entries.map((e) => html`<tr data-testid="address-row"><td>${e.ip}</td><td>${companies(e.ip)}</td>${cells(e)}<td>${e.blockedUntil ? action('unblock', operatorRef, '/console/rate-limit', { ip: e.ip }, `Unblock ${e.ip}`) : ''}</td></tr>`)}
</tbody></table>${entries.length === 0 ? html`<p>No addresses: the rate limiter tracks none, and the log holds no request.</p>` : ''}`;
  return { title: 'Rate limit', body: html`${intro}<p>Every address the rate limiter tracks, whichever company its requests named (or none).</p><div id="live" aria-live="polite">${live}</div>`, live };
}
