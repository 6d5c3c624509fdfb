// Callbacks: every event and delivery attempt (key redacted), resend one, pause and resume delivery.
import type { Sandbox } from '@idv-toolkit/types';
import type { Company } from '../companies.js';
import { html, pretty, time } from './html.js';
import { action, companyCell, companyHead } from './layout.js';
import type { Page, View } from './view.js';

export async function callbacksPage(view: View): Promise<Page> {
  const rows: { a: Sandbox.SandboxCallbackAttempt; company: Company }[] = [];
  const delivery: { company: Company; paused: boolean }[] = [];
  for (const company of view.viewer.companies) {
    for (const a of (await view.call(company, 'sandboxListCallbacks')) as Sandbox.SandboxCallbackAttempt[]) rows.push({ a, company });
    delivery.push({ company, paused: (await view.call(company, 'sandboxGetCallbackDelivery')).paused });
  }
  rows.sort((x, y) => y.a.sentAt.localeCompare(x.a.sentAt));
  const back = '/console/callbacks';
  const controls = html`${delivery.map(({ company, paused }) => html`<p data-testid="delivery">${view.viewer.admin ? `${company.name}: ` : ''}${company.callbackUrl ? html`delivery to <code>${company.callbackUrl}</code> is <strong>${paused ? 'paused' : 'on'}</strong> ${action('delivery', view.ref(company), back, { paused: String(!paused) }, paused ? 'Resume delivery' : 'Pause delivery', 'secondary')}` : 'no callback URL: no callbacks are sent'}</p>`)}`;
  const live = html`${controls}<table aria-label="Delivery attempts, newest first"><thead><tr><th scope="col">Sent</th>${companyHead(view.viewer)}<th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Type</th><th scope="col">Session</th><th scope="col">Outcome</th><th scope="col">Receiver status</th><th scope="col">Payload</th><th scope="col">Resend</th></tr></thead><tbody>
${rows.map(({ a, company }) => html`<tr data-testid="callback-row"><td>${time(a.sentAt)}</td>${companyCell(view.viewer, company.name)}<td>${a.eventId}</td><td>${a.attempt}</td><td>${a.type}</td><td><a href="/console/sessions/${a.sessionId}">${a.sessionId}</a></td><td class="${a.outcome}">${a.outcome}</td><td>${a.status ?? '—'}</td><td><details><summary>Payload</summary><pre tabindex="0">${pretty(a.payload)}</pre></details></td><td>${a.attempt === 1 ? action('resend', view.ref(company), back, { eventId: a.eventId }, 'Resend', 'secondary') : ''}</td></tr>`)}
</tbody></table>${rows.length === 0 ? html`<p>No callbacks sent yet.</p>` : ''}`;
  return { title: 'Callbacks', body: html`<div id="live" aria-live="polite">${live}</div>`, live };
}
