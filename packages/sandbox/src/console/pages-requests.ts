// Requests: the request log, newest first, filtered; and one request in full, with "copy as curl" and
// "copy as a client call".
import type { Sandbox } from '@idv-toolkit/types';
import { buildRoutes } from '../spec.js';
import { html, time, type Markup } from './html.js';
import { companyCell, companyHead } from './layout.js';
import type { RingEntry } from './request-ring.js';
import type { Page, View } from './view.js';

type Logged = Sandbox.SandboxLoggedRequest;

async function entriesFor(view: View, filter: Record<string, unknown>): Promise<{ entry: Logged; company: string }[]> {
  const { viewer } = view;
  // The operator sees every request, those whose key named no company too.
  if (viewer.admin) return (await view.ring.list(undefined, filter as never)).map((item: RingEntry) => ({ entry: item.entry, company: view.nameOf(item.companyKey) }));
  const company = viewer.companies[0]!;
  const result: Logged[] = await view.call(company, 'sandboxListRequests', filter);
  return result.map((entry) => ({ entry, company: company.name }));
}

export async function requestsPage(view: View): Promise<Page> {
  const q = view.url.searchParams;
  const filter: Record<string, unknown> = { limit: 200 };
  // Cut to the lengths sandboxListRequests takes (openapi/sandbox), which refuses longer ones; no operation ID is longer.
  for (const [field, name, max] of [['operation', 'operation', 100], ['sessionId', 'session', 200], ['text', 'text', 200]] as const) if (q.get(name)) filter[field] = q.get(name)!.slice(0, max);
  const status = Number(q.get('status'));
  if (q.get('status') && Number.isInteger(status) && status >= 100 && status <= 599) filter.status = status;
  const rows = await entriesFor(view, filter);
  const live = html`<table aria-label="Requests, newest first"><thead><tr><th scope="col">Time</th>${companyHead(view.viewer)}<th scope="col">Method</th><th scope="col">Path</th><th scope="col">Operation</th><th scope="col">Status</th><th scope="col">ms</th><th scope="col">Session</th></tr></thead><tbody>
${rows.map(({ entry: e, company }) => html`<tr data-testid="request-row"><td>${time(e.time)}</td>${companyCell(view.viewer, company)}<td>${e.method}</td><td><a href="/console/requests/${e.id}">${e.path}</a></td><td>${e.operation ?? '—'}</td><td class="s${String(e.status)[0]}">${e.status}</td><td class="num">${e.durationMs}</td><td>${e.sessionId ? html`<a href="/console/sessions/${e.sessionId}">${e.sessionId}</a>` : '—'}</td></tr>`)}
</tbody></table>${rows.length === 0 ? html`<p>No requests yet: make one with the client or curl, and it shows up here.</p>` : ''}`;
  const input = (name: string, label: string, type = 'text', list?: string) => html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}"${list ? html` list="${list}"` : ''} value="${q.get(name) ?? ''}"></div>`;
  // Every operation the sandbox answers (the routes are built once per process), to pick from while typing.
  const operations = [...new Set(buildRoutes().map((route) => route.operationId)), 'applicantPage'].sort();
  const body = html`<form class="filters" method="get" action="/console/requests" role="search" aria-label="Filter requests">${input('operation', 'Operation', 'text', 'operations')}<datalist id="operations">${operations.map((id) => html`<option value="${id}"></option>`)}</datalist>${input('status', 'Status', 'number')}${input('session', 'Session')}${input('text', 'Text')}<button type="submit">Filter</button> <a href="/console/requests">Clear</a></form>
<div id="live" aria-live="polite">${live}</div>`;
  return { title: 'Requests', body, live };
}

/** A body of a request as the typed client would take it: the company key left out (the client adds it). */
function argumentsOf(entry: Logged): unknown {
  if (entry.request.text === null) return undefined;
  try {
    const fields = JSON.parse(entry.request.text);
    if (fields && typeof fields === 'object') {
      for (const key of ['companyKey', 'company_key']) delete fields[key];
      return fields;
    }
  } catch {
    // a body that is not JSON: no arguments to show
  }
  return undefined;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** `idv.begin({...})`, `legacy.getResult({...})`, `control.completeSession({...})`: the client's method for the operation. */
export function clientCall(entry: Logged): string {
  if (!entry.operation || entry.api === 'applicant-page') return '// The applicant page is a browser page: no client method.';
  const args = argumentsOf(entry);
  const text = args === undefined || Object.keys(args as object).length === 0 ? '' : JSON.stringify(args, null, 2);
  const [client, method] = entry.api === 'legacy' ? ['legacy', lowerFirst(entry.operation.replace(/^legacy/, ''))] : entry.api === 'sandbox' ? ['control', lowerFirst(entry.operation.replace(/^sandbox/, ''))] : ['idv', entry.operation];
  return `await ${client}.${method}(${text});`;
}

/** A curl command that repeats the request; the company key comes from the environment, never from here. */
export function curlCommand(entry: Logged, origin: string): string {
  const parts = [`curl -X ${entry.method} '${origin}${entry.path}'`];
  const type = entry.request.contentType ?? '';
  if (entry.request.text !== null && type.includes('json')) {
    let text = entry.request.text;
    try {
      const fields = JSON.parse(text);
      for (const key of ['companyKey', 'company_key']) if (fields && typeof fields === 'object' && key in fields) fields[key] = '__IDV_COMPANY_KEY__';
      text = JSON.stringify(fields);
    } catch {
      // cut off or not JSON: sent as logged
    }
    const quoted = text.replaceAll("'", "'\\''").replaceAll('"__IDV_COMPANY_KEY__"', `"'"$IDV_COMPANY_KEY"'"`);
    parts.push(`-H 'content-type: application/json'`, `--data '${quoted}'`);
  } else if (type.startsWith('multipart/') && entry.request.text) {
    for (const [name, value] of Object.entries<string>(JSON.parse(entry.request.text))) {
      parts.push(name === 'company_key' || name === 'companyKey' ? `-F "${name}=$IDV_COMPANY_KEY"` : value.startsWith('[file ') ? `-F '${name}=@FILE'` : `-F '${name}=${value.replaceAll("'", "'\\''")}'`);
    }
  }
  return parts.join(' \\\n  ');
}

const bodyBlock = (label: string, body: Logged['request'], id: string): Markup =>
  html`<h2>${label}</h2><p>${body.contentType ?? 'no content type'}, ${body.size} bytes${body.truncated ? ' (the first 16 KiB shown)' : ''}</p>${body.text !== null ? html`<pre tabindex="0" data-testid="${id}">${body.text}</pre>` : body.size > 0 ? html`<p data-testid="${id}">Media: ${body.size} bytes, not shown.</p>` : html`<p data-testid="${id}">No body.</p>`}`;

export async function requestPage(view: View, id: string, origin: string): Promise<Page> {
  let entry: Logged | undefined;
  let company = '';
  if (view.viewer.admin) {
    const item = await view.ring.get(id);
    entry = item?.entry;
    company = view.nameOf(item?.companyKey);
  } else {
    const [own] = view.viewer.companies;
    entry = (await view.call(own!, 'sandboxGetRequest', { requestId: id }).catch(() => undefined)) ?? undefined;
    company = own!.name;
  }
  if (!entry) return { title: 'No such request', body: html`<p>The log holds no such request (it keeps the latest 1,000). <a href="/console/requests">All requests</a></p>`, status: 404 };
  const body = html`<dl><dt>Time</dt><dd>${time(entry.time)}</dd><dt>Company</dt><dd>${company}</dd><dt>Interface</dt><dd>${entry.api}</dd><dt>Operation</dt><dd>${entry.operation ?? '—'}</dd><dt>Status</dt><dd data-testid="status">${entry.status}</dd><dt>Duration</dt><dd>${entry.durationMs} ms</dd><dt>Source IP</dt><dd>${entry.sourceIp}</dd><dt>Session</dt><dd>${entry.sessionId ? html`<a href="/console/sessions/${entry.sessionId}">${entry.sessionId}</a>` : '—'}</dd></dl>
<div class="actions"><button type="button" class="secondary" data-copy="curl">Copy as curl</button><button type="button" class="secondary" data-copy="client-call">Copy as a client call</button></div>
${bodyBlock('Request', entry.request, 'request-body')}${bodyBlock('Response', entry.response, 'response-body')}
<h2>As curl</h2><pre tabindex="0" id="curl">${curlCommand(entry, origin)}</pre><h2>As a client call</h2><pre tabindex="0" id="client-call">${clientCall(entry)}</pre>`;
  return { title: `${entry.method} ${entry.path}`, body };
}
