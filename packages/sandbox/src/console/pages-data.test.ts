// The data pages (blacklist, users and groups, monitoring and sources) read whole, as the tester and the
// operator (admin token) see them: every header, cell, empty state ("None." under each empty table) and
// each row's button with the record and company it acts on. pages.test.ts checks pieces of the same
// pages; this file pins their live part and the forms around it character for character, so a changed
// header, a lost company column or a button acting on the wrong company fails here. The IDs are random
// (seeded), so they are replaced by <id1>, <id2>... in order of first appearance: a row's form must carry
// its own row's ID.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consolePage } from './pages.test-helper.js';
import { adminToken, keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

/** The page as the viewer gets it, with IDs numbered; `live` asks for the part the script swaps in. */
async function read(path: string, key: string, live = true) {
  const res = await consolePage(t.url, path, key, live);
  expect(res.status).toBe(200);
  const ids = new Map<string, string>();
  return (await res.text()).replace(/\b(blk|usr|grp|mon)_[0-9a-f]{32}\b/g, (id) => ids.get(id) ?? (ids.set(id, `<id${ids.size + 1}>`), ids.get(id)!));
}

const head = (cols: string[]) => `<thead><tr>${cols.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead>`;
const button = (action: string, c: number, back: string, field: string, id: string, label: string) =>
  `<form class="inline" method="post" action="/console/act/${action}"><input type="hidden" name="c" value="${c}"><input type="hidden" name="back" value="${back}"><input type="hidden" name="${field}" value="${id}"><button type="submit" class="secondary">${label}</button></form>`;
const none = '<p>None.</p>';
const refusedB = '<p>Screening is not available to Company B: {&#34;argumentError&#34;:&#34;payment-needed&#34;}.</p>';

describe('the data pages when there is nothing', () => {
  it('show every table with its headers and "None." beneath, the company column for the operator only', async () => {
    const blacklist = `<table aria-label="Blacklist records">${head(['ID', 'Reason', 'Name', 'Document number', 'Personal number', 'Remove'])}<tbody></tbody></table>${none}`;
    expect(await read('/console/blacklist', keyA)).toBe(blacklist);
    expect(await read('/console/blacklist', adminToken)).toBe(
      `<table aria-label="Blacklist records">${head(['ID', 'Company', 'Reason', 'Name', 'Document number', 'Personal number', 'Remove'])}<tbody></tbody></table>${none}`,
    );
    const users = (company: string[]) =>
      `<h2>Users</h2><table aria-label="Users">${head(['ID', ...company, 'E-mail', 'Roles', 'Delete'])}<tbody></tbody></table>${none}\n` +
      `<h2>Groups</h2><table aria-label="Groups">${head(['ID', ...company, 'Name', 'Members', 'Delete'])}<tbody></tbody></table>${none}`;
    expect(await read('/console/users', keyB)).toBe(users([]));
    expect(await read('/console/users', adminToken)).toBe(users(['Company']));
    const monitored = (company: string[]) => `<table aria-label="Monitored names">${head(['ID', ...company, 'Name', 'Last updated', 'Remove'])}<tbody></tbody></table>${none}`;
    expect(await read('/console/monitoring', keyA)).toBe(monitored([]));
    expect(await read('/console/monitoring', keyB)).toBe(refusedB + monitored([]));
    expect(await read('/console/monitoring', adminToken)).toBe(refusedB + monitored(['Company']));
  });
});

describe('the data pages with records', () => {
  beforeEach(async () => {
    await t.a.addBlacklistRecord({ query: { reason: 'Forged', firstName: 'Jane', lastName: 'Sample', documentNumber: 'DOC-1' } });
    await t.b.addBlacklistRecord({ query: { reason: 'Stolen', lastName: 'Only', personalNumber: 'PN-9' } });
    const jane = await t.a.createUser({ email: 'jane@example.org', password: 'fake-password-1', rights: ['administrator'] });
    await t.a.makeGroup({ name: 'Reviewers', memberIds: [jane.result] });
    await t.b.createUser({ email: 'bob@example.org', password: 'fake-password-2' });
    await t.a.monitorScreeningQuery({ query: { fullName: 'Testavia Sampleova' } });
  });

  it("list a company's own blacklist records with a remove button, and the form to add one", async () => {
    const back = '/console/blacklist';
    const field = (name: string, label: string) => `<div class="field"><label for="b-${name}">${label}</label><input id="b-${name}" name="${name}"></div>`;
    const page = await read(back, keyA, false);
    expect(page).toContain(
      `<div id="live" aria-live="polite"><table aria-label="Blacklist records">${head(['ID', 'Reason', 'Name', 'Document number', 'Personal number', 'Remove'])}<tbody>` +
        `<tr data-testid="blacklist-row"><td><id1></td><td>Forged</td><td>Jane Sample</td><td>DOC-1</td><td>—</td><td>${button('remove-blacklist', 0, back, 'id', '<id1>', 'Remove')}</td></tr></tbody></table></div>` +
        `<h2>Add a record</h2><form class="filters" method="post" action="/console/act/add-blacklist"><input type="hidden" name="c" value="0"><input type="hidden" name="back" value="${back}">` +
        `${field('reason', 'Reason')}${field('firstName', 'First name')}${field('lastName', 'Last name')}${field('documentNumber', 'Document number')}<button type="submit">Add</button></form></main>`,
    );
    // Company B's record: a name of one part, no document number; its remove button acts for B (the
    // form names a company by its place among all companies, so B is 1 whoever is signed in).
    expect(await read(back, keyB)).toBe(
      `<table aria-label="Blacklist records">${head(['ID', 'Reason', 'Name', 'Document number', 'Personal number', 'Remove'])}<tbody>` +
        `<tr data-testid="blacklist-row"><td><id1></td><td>Stolen</td><td>Only</td><td>—</td><td>PN-9</td><td>${button('remove-blacklist', 1, back, 'id', '<id1>', 'Remove')}</td></tr></tbody></table>`,
    );
  });

  it("show the operator every company's records with the company's name, each button acting for its company, and no form to add", async () => {
    const back = '/console/blacklist';
    const page = await read(back, adminToken, false);
    expect(page).toContain(
      `<div id="live" aria-live="polite"><table aria-label="Blacklist records">${head(['ID', 'Company', 'Reason', 'Name', 'Document number', 'Personal number', 'Remove'])}<tbody>` +
        `<tr data-testid="blacklist-row"><td><id1></td><td>Company A</td><td>Forged</td><td>Jane Sample</td><td>DOC-1</td><td>—</td><td>${button('remove-blacklist', 0, back, 'id', '<id1>', 'Remove')}</td></tr>` +
        `<tr data-testid="blacklist-row"><td><id2></td><td>Company B</td><td>Stolen</td><td>Only</td><td>—</td><td>PN-9</td><td>${button('remove-blacklist', 1, back, 'id', '<id2>', 'Remove')}</td></tr></tbody></table></div></main>`,
    );
    expect(page).not.toContain('Add a record');
  });

  it('list users with their roles and groups with their members, for a company and for the operator', async () => {
    const back = '/console/users';
    expect(await read(back, keyA)).toBe(
      `<h2>Users</h2><table aria-label="Users">${head(['ID', 'E-mail', 'Roles', 'Delete'])}<tbody>` +
        `<tr><td><id1></td><td>jane@example.org</td><td>administrator</td><td>${button('delete-user', 0, back, 'userId', '<id1>', 'Delete')}</td></tr></tbody></table>\n` +
        `<h2>Groups</h2><table aria-label="Groups">${head(['ID', 'Name', 'Members', 'Delete'])}<tbody>` +
        `<tr><td><id2></td><td>Reviewers</td><td><id1></td><td>${button('delete-group', 0, back, 'groupId', '<id2>', 'Delete')}</td></tr></tbody></table>`,
    );
    // Company B has a user and no group: "None." under the groups only.
    expect(await read(back, keyB)).toBe(
      `<h2>Users</h2><table aria-label="Users">${head(['ID', 'E-mail', 'Roles', 'Delete'])}<tbody>` +
        `<tr><td><id1></td><td>bob@example.org</td><td>call_center_operator</td><td>${button('delete-user', 1, back, 'userId', '<id1>', 'Delete')}</td></tr></tbody></table>\n` +
        `<h2>Groups</h2><table aria-label="Groups">${head(['ID', 'Name', 'Members', 'Delete'])}<tbody></tbody></table>${none}`,
    );
    expect(await read(back, adminToken)).toBe(
      `<h2>Users</h2><table aria-label="Users">${head(['ID', 'Company', 'E-mail', 'Roles', 'Delete'])}<tbody>` +
        `<tr><td><id1></td><td>Company A</td><td>jane@example.org</td><td>administrator</td><td>${button('delete-user', 0, back, 'userId', '<id1>', 'Delete')}</td></tr>` +
        `<tr><td><id2></td><td>Company B</td><td>bob@example.org</td><td>call_center_operator</td><td>${button('delete-user', 1, back, 'userId', '<id2>', 'Delete')}</td></tr></tbody></table>\n` +
        `<h2>Groups</h2><table aria-label="Groups">${head(['ID', 'Company', 'Name', 'Members', 'Delete'])}<tbody>` +
        `<tr><td><id3></td><td>Company A</td><td>Reviewers</td><td><id1></td><td>${button('delete-group', 0, back, 'groupId', '<id3>', 'Delete')}</td></tr></tbody></table>`,
    );
  });

  it('list monitored names, the form to change a watchlist entry and the sources, and for the operator every company without the form', async () => {
    const back = '/console/monitoring';
    const sources = (rows: string) =>
      `<h2>Sources</h2><table aria-label="Screening and check sources"><thead><tr><th scope="col">Company</th><th scope="col">Screening</th><th scope="col">Trusted database</th><th scope="col">Registries (check-in-&lt;registry&gt;)</th></tr></thead><tbody>${rows}</tbody></table></main>`;
    const rowA = '<tr><td>Company A</td><td>paid</td><td>yes</td><td>companies-house</td></tr>';
    const rowB = '<tr><td>Company B</td><td>not paid (payment-needed)</td><td>none (no-trusted-database-sources)</td><td>none</td></tr>';
    const monitored = (company: string[]) =>
      `<table aria-label="Monitored names">${head(['ID', ...company, 'Name', 'Last updated', 'Remove'])}<tbody>` +
      `<tr data-testid="monitoring-row"><td><id1></td>${company.length ? '<td>Company A</td>' : ''}<td>Testavia Sampleova</td><td>2026-01-01T00:00:00.000Z</td><td>${button('remove-monitoring', 0, back, 'id', '<id1>', 'Remove')}</td></tr></tbody></table>`;
    expect(await read(back, keyA, false)).toContain(
      `<div id="live" aria-live="polite">${monitored([])}</div>` +
        '<h2>Change a watchlist entry</h2><p>As if the watchlist had changed: names that match the entry get a new delta record and a callback.</p>' +
        `<form class="filters" method="post" action="/console/act/change-watchlist-entry"><input type="hidden" name="c" value="0"><input type="hidden" name="back" value="${back}">` +
        '<div class="field"><label for="w-person">Watchlist person ID</label><input id="w-person" name="personId" required></div><button type="submit">Change</button></form>' +
        sources(rowA),
    );
    expect(await read(back, keyB, false)).toContain(`${sources(rowB)}`);
    const operator = await read(back, adminToken, false);
    expect(operator).toContain(`<div id="live" aria-live="polite">${refusedB}${monitored(['Company'])}</div>${sources(rowA + rowB)}`);
  });
});

describe('the data pages beyond the first page of the API', () => {
  it('list every record, not only the 100 the list operations answer by default', async () => {
    // The console asks for up to 500; the operations' own default page is 100 (blacklist.ts, screening.ts).
    for (let i = 0; i < 101; i++) {
      await t.a.addBlacklistRecord({ query: { reason: `Reason ${i}`, personalNumber: `PN-${i}` } });
      await t.a.monitorScreeningQuery({ query: { fullName: `Testavia Sampleova ${i}` } });
    }
    const count = (text: string, testId: string) => text.split(`<tr data-testid="${testId}">`).length - 1;
    expect(count(await read('/console/blacklist', keyA), 'blacklist-row')).toBe(101);
    expect(count(await read('/console/monitoring', keyA), 'monitoring-row')).toBe(101);
  });
});

const sections = [
  ['/console/requests', 'Requests'],
  ['/console/sessions', 'Sessions'],
  ['/console/callbacks', 'Callbacks'],
  ['/console/rate-limit', 'Rate limit'],
  ['/console/blacklist', 'Blacklist'],
  ['/console/users', 'Users and groups'],
  ['/console/monitoring', 'Monitoring and sources'],
];

describe('the data pages around their tables', () => {
  it('name each page in its title, heading and the navigation, and list every registry a company checks in', async () => {
    t.sandbox.companies.get(keyA)!.registries.push('land-registry');
    for (const [path, title] of [['/console/blacklist', 'Blacklist'], ['/console/users', 'Users and groups'], ['/console/monitoring', 'Monitoring and sources']]) {
      const text = await read(path!, keyA, false);
      expect(text).toContain(`<title>${title} · Sandbox console</title>`);
      expect(text).toContain(`<h1>${title}</h1>`);
      // Every section in the navigation, in order, the current one marked.
      const nav = sections.map(([href, label]) => `<li><a href="${href}"${href === path ? ' aria-current="page"' : ''}>${label}</a></li>`).join('');
      expect(text).toContain(`<nav aria-label="Console sections"><ul>${nav}</ul></nav>`);
    }
    expect(await read('/console/monitoring', keyA, false)).toContain('<tr><td>Company A</td><td>paid</td><td>yes</td><td>companies-house, land-registry</td></tr>');
  });
});
