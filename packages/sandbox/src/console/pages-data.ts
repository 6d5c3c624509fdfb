// Data: blacklist records, users and groups, monitoring entries, through the API's own list and delete
// operations (the console adds none of its own for them).
import type { Company } from '../companies.js';
import { html, type Markup } from './html.js';
import { action, companyCell, companyHead } from './layout.js';
import type { Page, View } from './view.js';

async function each<T>(view: View, load: (company: Company) => Promise<T[]>): Promise<{ item: T; company: Company }[]> {
  const rows: { item: T; company: Company }[] = [];
  for (const company of view.viewer.companies) for (const item of await load(company)) rows.push({ item, company });
  return rows;
}

function table<T>(view: View, label: string, heads: string[], rows: { item: T; company: Company }[], cells: (item: T, company: Company) => Markup): Markup {
  return html`<table aria-label="${label}"><thead><tr>${heads.map((h, i) => html`${i === 1 ? companyHead(view.viewer) : ''}<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows.map(({ item, company }) => cells(item, company))}</tbody></table>${rows.length === 0 ? html`<p>None.</p>` : ''}`;
}

type Blacklisted = { id: string; reason: string; firstName?: string; lastName?: string; documentNumber?: string; personalNumber?: string };

export async function blacklistPage(view: View): Promise<Page> {
  const rows = await each<Blacklisted>(view, async (company) => (await view.call(company, 'listBlacklistRecords', { query: { offset: 0, limit: 500 } })).data);
  const back = '/console/blacklist';
  const live = table(view, 'Blacklist records', ['ID', 'Reason', 'Name', 'Document number', 'Personal number', 'Remove'], rows, (r, company) =>
    html`<tr data-testid="blacklist-row"><td>${r.id}</td>${companyCell(view.viewer, company.name)}<td>${r.reason}</td><td>${[r.firstName, r.lastName].filter(Boolean).join(' ') || '—'}</td><td>${r.documentNumber ?? '—'}</td><td>${r.personalNumber ?? '—'}</td><td>${action('remove-blacklist', view.ref(company), back, { id: r.id }, 'Remove', 'secondary')}</td></tr>`);
  const first = view.viewer.companies[0];
  const field = (name: string, label: string) => html`<div class="field"><label for="b-${name}">${label}</label><input id="b-${name}" name="${name}"></div>`;
  const add = first && !view.viewer.admin
    ? html`<h2>Add a record</h2><form class="filters" method="post" action="/console/act/add-blacklist"><input type="hidden" name="c" value="${view.ref(first)}"><input type="hidden" name="back" value="${back}">${field('reason', 'Reason')}${field('firstName', 'First name')}${field('lastName', 'Last name')}${field('documentNumber', 'Document number')}<button type="submit">Add</button></form>`
    : html``;
  return { title: 'Blacklist', body: html`<div id="live" aria-live="polite">${live}</div>${add}`, live };
}

export async function usersPage(view: View): Promise<Page> {
  // listUsers answers the e-mail a user was created with as its `username` (the interface has no `email` field).
  const users = await each<{ id: string; username: string; roles?: string[] }>(view, (company) => view.call(company, 'listUsers'));
  const groups = await each<{ id: string; name: string; memberUserIds?: string[] }>(view, (company) => view.call(company, 'listGroups'));
  const back = '/console/users';
  const live = html`<h2>Users</h2>${table(view, 'Users', ['ID', 'E-mail', 'Roles', 'Delete'], users, (u, company) => html`<tr><td>${u.id}</td>${companyCell(view.viewer, company.name)}<td>${u.username}</td><td>${(u.roles ?? []).join(', ')}</td><td>${action('delete-user', view.ref(company), back, { userId: u.id }, 'Delete', 'secondary')}</td></tr>`)}
<h2>Groups</h2>${table(view, 'Groups', ['ID', 'Name', 'Members', 'Delete'], groups, (g, company) => html`<tr><td>${g.id}</td>${companyCell(view.viewer, company.name)}<td>${g.name}</td><td>${(g.memberUserIds ?? []).join(', ') || '—'}</td><td>${action('delete-group', view.ref(company), back, { groupId: g.id }, 'Delete', 'secondary')}</td></tr>`)}`;
  return { title: 'Users and groups', body: html`<div id="live" aria-live="polite">${live}</div>`, live };
}

export async function monitoringPage(view: View): Promise<Page> {
  // A company that has not paid for screening gets `payment-needed`: shown as none, with the reason.
  const refused: string[] = [];
  const rows = await each<{ id: string; fullName: string; lastUpdatedDate?: string }>(view, async (company) => {
    try {
      return (await view.call(company, 'listScreeningMonitoringRecords', { start: 0, limit: 500 })).data;
    } catch (error) {
      refused.push(`${company.name}: ${JSON.stringify((error as { answer?: unknown }).answer)}`);
      return [];
    }
  });
  const back = '/console/monitoring';
  const live = html`${refused.map((r) => html`<p>Screening is not available to ${r}.</p>`)}${table(view, 'Monitored names', ['ID', 'Name', 'Last updated', 'Remove'], rows, (m, company) =>
    html`<tr data-testid="monitoring-row"><td>${m.id}</td>${companyCell(view.viewer, company.name)}<td>${m.fullName}</td><td>${m.lastUpdatedDate ?? '—'}</td><td>${action('remove-monitoring', view.ref(company), back, { id: m.id }, 'Remove', 'secondary')}</td></tr>`)}`;
  const first = view.viewer.companies[0];
  const change = first && !view.viewer.admin
    ? html`<h2>Change a watchlist entry</h2><p>As if the watchlist had changed: names that match the entry get a new delta record and a callback.</p><form class="filters" method="post" action="/console/act/change-watchlist-entry"><input type="hidden" name="c" value="${view.ref(first)}"><input type="hidden" name="back" value="${back}"><div class="field"><label for="w-person">Watchlist person ID</label><input id="w-person" name="personId" required></div><button type="submit">Change</button></form>`
    : html``;
  // What the company's configuration gives it (read from the sandbox's configuration: no operation changes it).
  const sources = html`<h2>Sources</h2><table aria-label="Screening and check sources"><thead><tr><th scope="col">Company</th><th scope="col">Screening</th><th scope="col">Trusted database</th><th scope="col">Registries (check-in-&lt;registry&gt;)</th></tr></thead><tbody>${view.viewer.companies.map(
    (c) => html`<tr><td>${c.name}</td><td>${c.screeningPaid ? 'paid' : 'not paid (payment-needed)'}</td><td>${c.trustedDatabase ? 'yes' : 'none (no-trusted-database-sources)'}</td><td>${c.registries.join(', ') || 'none'}</td></tr>`,
  )}</tbody></table>`;
  return { title: 'Monitoring and sources', body: html`<div id="live" aria-live="polite">${live}</div>${change}${sources}`, live };
}
