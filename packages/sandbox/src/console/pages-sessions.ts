// Sessions: the list, and one session with its result, activities, media and callbacks, and the actions
// an operator takes on it.
import type { Sandbox } from '@idv-toolkit/types';
import type { Company } from '../companies.js';
import { html, pretty, time } from './html.js';
import { action, companyCell, companyHead } from './layout.js';
import type { Page, View } from './view.js';

type Summary = Sandbox.SandboxSessionSummary;

export async function sessionsPage(view: View): Promise<Page> {
  const rows: { s: Summary; company: Company }[] = [];
  for (const company of view.viewer.companies) for (const s of (await view.call(company, 'sandboxListSessions', { limit: 200 })) as Summary[]) rows.push({ s, company });
  rows.sort((a, b) => b.s.createdAt.localeCompare(a.s.createdAt));
  const live = html`<table aria-label="Sessions, newest first"><thead><tr><th scope="col">Session</th>${companyHead(view.viewer)}<th scope="col">Type</th><th scope="col">Status</th><th scope="col">Configuration</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Parent</th><th scope="col">Children</th></tr></thead><tbody>
${rows.map(({ s, company }) => html`<tr data-testid="session-row"><td><a href="/console/sessions/${s.id}">${s.id}</a></td>${companyCell(view.viewer, company.name)}<td>${s.kind.toUpperCase()}</td><td>${s.status}${s.expired ? ' (expired)' : ''}</td><td>${s.configId ?? '—'}</td><td>${time(s.createdAt)}</td><td>${time(s.expiresAt)}</td><td>${s.parentId ? html`<a href="/console/sessions/${s.parentId}">${s.parentId}</a>` : '—'}</td><td>${s.childIds.map((id) => html`<a href="/console/sessions/${id}">${id}</a> `)}</td></tr>`)}
</tbody></table>${rows.length === 0 ? html`<p>No sessions yet: <code>begin</code> makes one.</p>` : ''}`;
  return { title: 'Sessions', body: html`<div id="live" aria-live="polite">${live}</div>`, live };
}

/** The company (of those the viewer sees) that holds the session, and its summary. */
async function find(view: View, id: string): Promise<{ company: Company; s: Summary } | undefined> {
  for (const company of view.viewer.companies) {
    const s = await view.call(company, 'sandboxGetSession', { sessionId: id }).catch(() => undefined);
    if (s) return { company, s };
  }
  return undefined;
}

const mediaFinished = (s: Summary) => s.kind === 'kyc' && ['approved', 'rejected', 'manual-check'].includes(s.status);

/** The session's media, each from the API's own operation (/console/media/... runs it): none until a KYC session is finished. */
function mediaOf(c: number, s: Summary) {
  if (!mediaFinished(s)) return html`<p>No media: a KYC session has document images, photos, a video and a PDF once finished.</p>`;
  const src = (kind: string) => `/console/media/${c}/${s.id}/${kind}`;
  return html`<div class="actions">
<figure><img class="media" src="${src('card-front')}" alt="Front of the identity document"><figcaption>Document, front</figcaption></figure>
<figure><img class="media" src="${src('card-back')}" alt="Back of the identity document"><figcaption>Document, back</figcaption></figure>
<figure><img class="media" src="${src('face-photo')}" alt="Face photo from the identity document"><figcaption>Face photo (document)</figcaption></figure>
<figure><img class="media" src="${src('face')}" alt="The applicant's selfie"><figcaption>Selfie</figcaption></figure>
<figure><video class="media" controls preload="metadata" src="${src('video')}"><track kind="captions" src="${src('captions')}" srclang="en" label="English" default></video><figcaption>Liveness video</figcaption></figure>
</div><p><a href="${src('pdf')}">The session as PDF</a></p>`;
}

export async function sessionPage(view: View, id: string): Promise<Page> {
  const found = await find(view, id);
  if (!found) return { title: 'No such session', body: html`<p>No session of yours has this ID. <a href="/console/sessions">All sessions</a></p>`, status: 404 };
  const { company, s } = found;
  const c = view.ref(company);
  const back = `/console/sessions/${s.id}`;
  const [result, activities, attempts] = await Promise.all([
    view.call(company, 'getResult', { sessionId: s.id }).catch((e) => ({ error: e.answer })),
    view.call(company, 'listSessionActivities', { sessionId: s.id }).catch(() => []),
    view.call(company, 'sandboxListCallbacks'),
  ]);
  const own = (attempts as Sandbox.SandboxCallbackAttempt[]).filter((a) => a.sessionId === s.id).reverse();
  const live = html`<dl><dt>Company</dt><dd>${company.name}</dd><dt>Type</dt><dd>${s.kind.toUpperCase()}</dd><dt>Status</dt><dd data-testid="session-status">${s.status}</dd><dt>Configuration</dt><dd>${s.configId ?? '—'}</dd><dt>Created</dt><dd>${time(s.createdAt)}</dd><dt>Expires</dt><dd>${time(s.expiresAt)}${s.expired ? ' (expired)' : ''}</dd><dt>Finished</dt><dd>${time(s.finishedAt)}</dd>
<dt>Parent</dt><dd>${s.parentId ? html`<a href="/console/sessions/${s.parentId}">${s.parentId}</a>` : '—'}</dd><dt>Children</dt><dd>${s.childIds.length ? s.childIds.map((child) => html`<a href="/console/sessions/${child}">${child}</a> `) : '—'}</dd></dl>
<h2>Callbacks</h2>${own.length ? html`<table aria-label="Callbacks of this session"><thead><tr><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Type</th><th scope="col">Sent</th><th scope="col">Outcome</th><th scope="col">Receiver status</th><th scope="col">Payload</th></tr></thead><tbody>${own.map((a) => html`<tr data-testid="session-callback"><td>${a.eventId}</td><td>${a.attempt}</td><td>${a.type}</td><td>${time(a.sentAt)}</td><td class="${a.outcome}">${a.outcome}</td><td>${a.status ?? '—'}</td><td><pre tabindex="0">${pretty(a.payload)}</pre></td></tr>`)}</tbody></table>` : html`<p>No callbacks yet${company.callbackUrl ? '' : ' (the company has no callback URL)'}.</p>`}
<h2>Result</h2><pre tabindex="0" data-testid="result">${pretty(result)}</pre>
<h2>Activities</h2><table aria-label="Activities"><thead><tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Data</th></tr></thead><tbody>${(activities as { time: string; type: string; data: unknown }[]).map((a) => html`<tr><td>${time(a.time)}</td><td>${a.type}</td><td><code>${JSON.stringify(a.data ?? {})}</code></td></tr>`)}</tbody></table>`;
  const body = html`<div class="actions" role="group" aria-label="Session actions">
${action('complete', c, back, { sessionId: s.id, result: 'approved' }, 'Approve')}${action('complete', c, back, { sessionId: s.id, result: 'rejected' }, 'Reject')}${action('complete', c, back, { sessionId: s.id, result: 'manual-check' }, 'Manual check')}
${action('additional-information', c, back, { sessionId: s.id }, 'Request additional information', 'secondary')}${action('expire', c, back, { sessionId: s.id }, 'Expire', 'secondary')}${action('delete-session', c, '/console/sessions', { sessionId: s.id }, 'Delete', 'danger', 'Delete this session and its child sessions for good?')}
<a href="${s.applicantUrl}" target="_blank" rel="noopener noreferrer">Open the applicant page</a></div>
<div id="live" aria-live="polite">${live}</div>
<h2>Media</h2>${mediaOf(c, s)}`;
  return { title: `Session ${s.id}`, body, live };
}
