// The console's pages over plain HTTP, as a tester reads them (README "Console"): each section's rows,
// links and buttons for a signed-in company, the company column and names for the operator (admin
// token), the empty states, the notices an action leaves, the media of a finished session, and the live
// part a page refreshes. The browser test (console.browser.test.ts) clicks through them; this one reads
// what each page says, quickly enough to run for every mutant of console/.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminToken, keyA, keyB, type startTestSandbox } from '../sandbox.test-helper.js';
import { startWithReceiver } from './pages.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
let callbackUrl: string;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ t, callbackUrl, close } = await startWithReceiver((req, res) => req.resume().on('end', () => res.end('ok'))));
});
afterEach(() => close());

const cookieOf = (key: string) => ({ cookie: `idv_console=${encodeURIComponent(key)}` });
async function page(path: string, key = keyA, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${path}`, { headers: { ...cookieOf(key), ...headers }, redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text(), res };
}
async function act(name: string, fields: Record<string, string>, key = keyA) {
  const res = await fetch(`${t.url}/console/act/${name}`, { method: 'POST', headers: cookieOf(key), body: new URLSearchParams(fields), redirect: 'manual' });
  await res.arrayBuffer();
  return decodeURIComponent(res.headers.get('location') ?? '');
}
/** The rows of the table with that data-testid, each as its cells' text. */
const rows = (text: string, testId: string) =>
  [...text.matchAll(new RegExp(`<tr data-testid="${testId}">(.*?)</tr>`, 'gs'))].map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((c) => c[1]!.replace(/<[^>]+>/g, '').trim()));

async function finishedSession() {
  const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
  await t.control.completeSession({ sessionId: id, result: 'approved' });
  await t.sandbox.dispatcher.idle();
  return id;
}

describe('the layout', () => {
  it('names the page and the signed-in company, marks the current section, and shows a notice and an error', async () => {
    const { text, type, res } = await page('/console/sessions?notice=Done%20it&error=Broke%20it');
    expect(type).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(text).toContain('<title>Sessions · Sandbox console</title>');
    expect(text).toContain('<h1>Sessions</h1>');
    expect(text).toContain('Signed in as Company A');
    expect(text).toContain('<a href="/console/sessions" aria-current="page">Sessions</a>');
    expect(text).toContain('<a href="/console/requests">Requests</a>');
    expect(text).toContain('<p class="notice" role="status">Done it</p>');
    expect(text).toContain('<p class="error" role="alert">Broke it</p>');
    expect(text).not.toContain('class="notice"'.repeat(2));
    expect((await page('/console/sessions')).text).not.toMatch(/class="(notice|error)"/);
  });

  it('serves its stylesheet and script, and the sign-in page without a cookie', async () => {
    const css = await page('/console/assets/console.css');
    expect([css.status, css.type]).toEqual([200, 'text/css; charset=utf-8']);
    expect(css.text).toContain('nav a[aria-current=page]');
    const js = await page('/console/assets/console.js');
    expect([js.status, js.type]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(js.text).toContain("new EventSource('/console/events')");
    const signIn = await (await fetch(`${t.url}/console/`)).text();
    expect(signIn).toContain('<title>Sign in · Sandbox console</title>');
    expect(signIn).toContain('name="key" type="password"');
    expect(signIn).not.toContain('Signed in as');
  });

  it('signs out by clearing the cookie', async () => {
    const res = await fetch(`${t.url}/console/sign-out`, { method: 'POST', headers: cookieOf(keyA), redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/');
    expect(res.headers.get('set-cookie')).toBe('idv_console=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0');
  });

  it('answers a page that is not there with 404 in the layout, and an unknown viewer of the events with 401', async () => {
    const missing = await page('/console/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('No such console page.');
    expect(missing.text).toContain('Signed in as Company A');
    expect((await page('/console/events', 'ck_test_nobody_0000')).status).toBe(401);
    expect((await page('/console/sessions', 'ck_test_nobody_0000')).res.headers.get('location')).toBe('/console/');
  });
});

describe('the requests page', () => {
  it('lists the requests with method, path, operation, status and session, and a filter form that keeps its values', async () => {
    const { id } = await t.a.begin({});
    await t.legacyA.getResult({ session_token: 'sess_nope' }).catch(() => undefined);
    const { text } = await page('/console/requests');
    const listed = rows(text, 'request-row');
    expect(listed[0]).toEqual(['2026-01-01 00:00:00Z', 'POST', '/external-api/result/', 'legacyGetResult', '400', expect.stringMatching(/^[\d.]+$/), 'sess_nope']);
    expect(listed[1]!.slice(1, 5)).toEqual(['POST', expect.stringContaining('begin'), 'begin', '200']);
    expect(listed[1]![6]).toBe(id);
    expect(text).toContain(`<a href="/console/sessions/${id}">${id}</a>`);
    expect(text).toContain('<td class="s4">400</td>');
    expect(text).toContain('<option value="begin"></option>');
    expect(text).toContain('<option value="applicantPage"></option>');
    const filtered = (await page('/console/requests?operation=begin&status=200&session=&text=')).text;
    expect(rows(filtered, 'request-row').map((r) => r[3])).toEqual(['begin']);
    expect(filtered).toContain('<input id="f-operation" name="operation" type="text" list="operations" value="begin">');
    expect(filtered).toContain('<input id="f-status" name="status" type="number" value="200">');
    expect(rows((await page('/console/requests?status=400')).text, 'request-row').map((r) => r[3])).toEqual(['legacyGetResult']);
    expect(rows((await page(`/console/requests?session=${id}`)).text, 'request-row')).toHaveLength(1);
    expect(rows((await page('/console/requests?status=99')).text, 'request-row').length).toBeGreaterThan(1);
    expect((await page('/console/requests', keyB)).text).toContain('No requests yet');
    expect(text).not.toContain('No requests yet');
  });

  it('shows one request in full: company, interface, operation, status, bodies, curl and the client call', async () => {
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    const [logged] = (await t.control.listRequests({ operation: 'begin' })).result;
    const { text, status } = await page(`/console/requests/${logged!.id}`);
    expect(status).toBe(200);
    expect(text).toContain(`<title>POST ${logged!.path} · Sandbox console</title>`);
    expect(text).toContain('<dt>Company</dt><dd>Company A</dd>');
    expect(text).toContain('<dt>Interface</dt><dd>current</dd>');
    expect(text).toContain('<dt>Operation</dt><dd>begin</dd>');
    expect(text).toContain('<dd data-testid="status">200</dd>');
    expect(text).toContain(`<dt>Session</dt><dd><a href="/console/sessions/${id}">${id}</a></dd>`);
    expect(text).toMatch(/<h2>Request<\/h2><p>application\/json, \d+ bytes<\/p><pre tabindex="0" data-testid="request-body">/);
    expect(text).toContain('<h2>Response</h2>');
    expect(text).toContain('&#34;companyKey&#34;: &#34;[redacted]&#34;');
    expect(text).toContain(`curl -X POST &#39;${t.url}${logged!.path}&#39;`);
    expect(text).toContain('await idv.begin(');
    expect(text).not.toContain(keyA);
    const missing = await page('/console/requests/req_nope');
    expect([missing.status, missing.text.includes('The log holds no such request')]).toEqual([404, true]);
    expect((await page(`/console/requests/${logged!.id}`, keyB)).status).toBe(404);
    const operator = await page(`/console/requests/${logged!.id}`, adminToken);
    expect(operator.text).toContain('<dt>Company</dt><dd>Company A</dd>');
  });

  it("shows the operator every company's requests with the company's name", async () => {
    await t.a.begin({});
    await t.b.begin({});
    const listed = rows((await page('/console/requests', adminToken)).text, 'request-row').filter((r) => r[4] === 'begin');
    expect(listed.map((r) => r[1])).toEqual(['Company B', 'Company A']);
    expect((await page('/console/requests', adminToken)).text).toContain('<th scope="col">Company</th>');
    expect((await page('/console/requests')).text).not.toContain('<th scope="col">Company</th>');
  });
});

describe('the sessions pages', () => {
  it('list the sessions newest first with type, status, configuration, times and links', async () => {
    const parent = await t.a.begin({ configId: 'cfg-kyc-additional-info' });
    t.clock.advance(1_000);
    const { id } = await t.a.begin({});
    await t.control.expireSession({ sessionId: id });
    const { text } = await page('/console/sessions');
    const listed = rows(text, 'session-row');
    expect(listed.map((r) => r[0])).toEqual([id, parent.additionalSessionId, parent.id]);
    expect(listed[0]!.slice(1, 4)).toEqual(['KYC', 'created (expired)', '—']);
    expect(listed[2]!.slice(1, 4)).toEqual(['KYC', 'created', 'cfg-kyc-additional-info']);
    expect(listed[1]![6]).toBe(parent.id);
    expect(listed[2]![7]).toBe(parent.additionalSessionId);
    expect(text).toContain(`<a href="/console/sessions/${parent.additionalSessionId}">${parent.additionalSessionId}</a> `);
    expect((await page('/console/sessions', keyB)).text).toContain('No sessions yet');
    expect(text).not.toContain('No sessions yet');
  });

  it('show a finished session with its result, activities, callbacks, media and actions', async () => {
    const id = await finishedSession();
    const { text } = await page(`/console/sessions/${id}`);
    expect(text).toContain(`<title>Session ${id} · Sandbox console</title>`);
    expect(text).toContain('<dt>Company</dt><dd>Company A</dd><dt>Type</dt><dd>KYC</dd>');
    expect(text).toContain('<dd data-testid="session-status">approved</dd>');
    expect(text).toContain('<dt>Configuration</dt><dd>cfg-kyc-standard-01</dd>');
    expect(text).toContain('<dt>Parent</dt><dd>—</dd><dt>Children</dt><dd>—</dd>');
    expect(rows(text, 'session-callback')).toEqual([[expect.stringMatching(/^evt_/), '1', 'session-change', expect.any(String), 'delivered', '200', expect.stringContaining(`&#34;sessionId&#34;: &#34;${id}&#34;`)]]);
    expect(text).toMatch(/<pre tabindex="0" data-testid="result">\{\n {2}&#34;/);
    expect(text).toContain('<td>PAGE_LOADED</td>');
    for (const [label, result] of [['Approve', 'approved'], ['Reject', 'rejected'], ['Manual check', 'manual-check']]) {
      expect(text).toContain(`<input type="hidden" name="result" value="${result}"><button type="submit">${label}</button>`);
    }
    expect(text).toContain('<form class="inline" method="post" action="/console/act/delete-session" data-confirm="Delete this session and its child sessions for good?">');
    expect(text).toContain('<button type="submit" class="secondary">Expire</button>');
    expect(text).toContain('<button type="submit" class="danger">Delete</button>');
    expect(text).toContain(`<a href="${t.url}/widget/?session_token=${id}" target="_blank" rel="noopener noreferrer">Open the applicant page</a>`);
    for (const kind of ['card-front', 'card-back', 'face-photo', 'face', 'video', 'captions', 'pdf']) expect(text).toContain(`/console/media/0/${id}/${kind}`);
    expect(text).not.toContain('No media');
  });

  it('show an unfinished session without media, without callbacks, and a missing one as 404', async () => {
    const parent = await t.a.begin({ configId: 'cfg-kyc-additional-info' });
    const { text } = await page(`/console/sessions/${parent.additionalSessionId}`);
    expect(text).toContain('No media: a KYC session has document images');
    expect(text).toContain('<p>No callbacks yet.</p>');
    expect(text).toContain(`<dt>Parent</dt><dd><a href="/console/sessions/${parent.id}">${parent.id}</a></dd>`);
    expect((await page(`/console/sessions/${parent.id}`)).text).toContain(`<dt>Children</dt><dd><a href="/console/sessions/${parent.additionalSessionId}">${parent.additionalSessionId}</a> </dd>`);
    const missing = await page(`/console/sessions/${parent.id}`, keyB);
    expect([missing.status, missing.text.includes('No session of yours has this ID.')]).toEqual([404, true]);
    const { id } = await t.b.begin({});
    expect((await page(`/console/sessions/${id}`, keyB)).text).toContain('<p>No callbacks yet (the company has no callback URL).</p>');
  });

  it("serve a finished session's media from the API's own operations, and a caption track", async () => {
    const id = await finishedSession();
    const jpeg = await page(`/console/media/0/${id}/card-front`);
    expect([jpeg.status, jpeg.type]).toEqual([200, 'image/jpeg']);
    const photo = await fetch(`${t.url}/console/media/0/${id}/face-photo`, { headers: cookieOf(keyA) });
    expect([photo.status, photo.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect(new Uint8Array(await photo.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0xff, 0xd8]));
    const video = await page(`/console/media/0/${id}/video`);
    expect([video.status, video.type]).toEqual([200, 'video/mp4']);
    const pdf = await page(`/console/media/0/${id}/pdf`);
    expect([pdf.status, pdf.type, pdf.text.slice(0, 5)]).toEqual([200, 'application/pdf', '%PDF-']);
    const captions = await page(`/console/media/0/${id}/captions`);
    expect([captions.status, captions.type, captions.text.startsWith('WEBVTT\n')]).toEqual([200, 'text/vtt; charset=utf-8', true]);
    const { id: open } = await t.a.begin({});
    const none = await page(`/console/media/0/${open}/card-front`);
    expect([none.status, none.type, none.text]).toEqual([404, 'text/plain; charset=utf-8', 'No such media for this session (yet)']);
    const unknown = await page(`/console/media/0/${open}/nope`);
    expect([unknown.status, unknown.type, unknown.text]).toEqual([404, 'text/plain; charset=utf-8', 'Not found']);
    expect((await page(`/console/media/1/${id}/card-front`)).status).toBe(404);
    expect((await page(`/console/media/0/${id}/card-front`, keyB)).status).toBe(404);
    for (const kind of ['constructor', 'tostring', 'nope']) expect((await page(`/console/media/0/${id}/${kind}`)).status).toBe(404);
  });
});

describe("the operator's lists", () => {
  it("interleave the companies' sessions and callbacks, newest first", async () => {
    t.sandbox.companies.get(keyB)!.callbackUrl = callbackUrl;
    const ids: string[] = [];
    for (const client of [t.a, t.b, t.a]) {
      const { id } = await client.begin({});
      ids.push(id);
      t.clock.advance(1_000);
    }
    expect(rows((await page('/console/sessions', adminToken)).text, 'session-row').map((r) => [r[0], r[1]])).toEqual([
      [ids[2], 'Company A'],
      [ids[1], 'Company B'],
      [ids[0], 'Company A'],
    ]);
    for (const [control, id] of [[t.control, ids[0]], [t.controlB, ids[1]], [t.control, ids[2]]] as const) {
      await control.completeSession({ sessionId: id!, result: 'approved' });
      await t.sandbox.dispatcher.idle();
      t.clock.advance(1_000);
    }
    expect(rows((await page('/console/callbacks', adminToken)).text, 'callback-row').map((r) => [r[5], r[1]])).toEqual([[ids[2], 'Company A'], [ids[1], 'Company B'], [ids[0], 'Company A']]);
  });
});

describe('a session finished otherwise', () => {
  it('has media when rejected or sent to a manual check, and lists its callbacks newest first', async () => {
    for (const result of ['rejected', 'manual-check'] as const) {
      const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
      await t.control.completeSession({ sessionId: id, result });
      await t.sandbox.dispatcher.idle();
      const text = (await page(`/console/sessions/${id}`)).text;
      expect(text).toContain(`/console/media/0/${id}/pdf`);
      expect(text).not.toContain('No media');
    }
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    await t.sandbox.dispatcher.idle();
    t.clock.advance(1_000);
    await t.control.requestAdditionalInformation({ sessionId: id });
    await t.sandbox.dispatcher.idle();
    const listed = rows((await page(`/console/sessions/${id}`)).text, 'session-callback');
    expect(listed).toHaveLength(2);
    expect(listed[0]![6]).toContain('ADDITIONAL');
    expect(listed[1]![6]).toContain('APPROVED');
  });
});

describe('the callbacks page', () => {
  it('shows delivery on with a pause button, the attempts newest first with a resend button, and nothing for a company without a URL', async () => {
    const id = await finishedSession();
    const { text } = await page('/console/callbacks');
    expect(text).toContain(`delivery to <code>${callbackUrl}</code> is <strong>on</strong>`);
    expect(text).toContain('<input type="hidden" name="paused" value="true"><button type="submit" class="secondary">Pause delivery</button>');
    const listed = rows(text, 'callback-row');
    expect(listed).toHaveLength(1);
    expect(listed[0]!.slice(1, 7)).toEqual([expect.stringMatching(/^evt_/), '1', 'session-change', id, 'delivered', '200']);
    expect(text).toContain('<button type="submit" class="secondary">Resend</button>');
    expect(text).not.toContain('No callbacks sent yet');
    await t.control.setCallbackDelivery({ paused: true });
    const paused = (await page('/console/callbacks')).text;
    expect(paused).toContain('is <strong>paused</strong>');
    expect(paused).toContain('<input type="hidden" name="paused" value="false"><button type="submit" class="secondary">Resume delivery</button>');
    const b = (await page('/console/callbacks', keyB)).text;
    expect(b).toContain('no callback URL: no callbacks are sent');
    expect(b).toContain('No callbacks sent yet.');
    const operator = (await page('/console/callbacks', adminToken)).text;
    expect(operator).toContain('Company A: delivery to');
    expect(operator).toContain('Company B: no callback URL');
    expect(rows(operator, 'callback-row')[0]![1]).toBe('Company A');
  });
});

describe('the rate-limit page', () => {
  it('shows the address of the requests with its count, and nothing for a company without requests', async () => {
    await t.a.begin({});
    const { text } = await page('/console/rate-limit');
    expect(text).toContain('Each address may make a set number of requests a minute');
    expect(rows(text, 'address-row')).toEqual([['127.0.0.1', '1', expect.stringMatching(/^\d{4}-/), 'not blocked', '']]);
    expect((await page('/console/rate-limit', keyB)).text).toContain('No addresses: none of your requests is in the log.');
    const operator = (await page('/console/rate-limit', adminToken)).text;
    expect(operator).toContain('Every address the rate limiter tracks');
    expect(rows(operator, 'address-row')[0]!.slice(0, 2)).toEqual(['127.0.0.1', 'Company A']);
  });
});

describe('the data pages', () => {
  it('list blacklist records with their fields and a remove button, and the form to add one', async () => {
    await t.a.addBlacklistRecord({ query: { reason: 'Forged', firstName: 'Jane', lastName: 'Sample', documentNumber: 'DOC-1' } });
    await t.a.addBlacklistRecord({ query: { reason: 'Other', personalNumber: 'PN-2' } });
    const { text } = await page('/console/blacklist');
    expect(rows(text, 'blacklist-row').map((r) => r.slice(1))).toEqual([
      ['Forged', 'Jane Sample', 'DOC-1', '—', 'Remove'],
      ['Other', '—', '—', 'PN-2', 'Remove'],
    ]);
    expect(text).toContain('<form class="filters" method="post" action="/console/act/add-blacklist">');
    expect(text).toContain('<label for="b-documentNumber">Document number</label><input id="b-documentNumber" name="documentNumber">');
    expect(text).not.toContain('<p>None.</p>');
    expect((await page('/console/blacklist', keyB)).text).toContain('<p>None.</p>');
    const operator = (await page('/console/blacklist', adminToken)).text;
    expect(operator).not.toContain('Add a record');
    expect(rows(operator, 'blacklist-row')[0]![1]).toBe('Company A');
    expect(operator).toContain('<th scope="col">ID</th><th scope="col">Company</th><th scope="col">Reason</th>');
  });

  it('list users and groups with their members', async () => {
    const user = await t.a.createUser({ email: 'jane@example.org', password: 'fake-password-1', rights: ['administrator'] });
    await t.a.makeGroup({ name: 'Reviewers', memberIds: [user.result] });
    await t.a.makeGroup({ name: 'Empty' });
    const { text } = await page('/console/users');
    expect(text).toContain('<td>jane@example.org</td><td>administrator</td>');
    expect(text).toContain(`<td>Reviewers</td><td>${user.result}</td>`);
    expect(text).toContain('<td>Empty</td><td>—</td>');
    expect(text).toContain('<button type="submit" class="secondary">Delete</button>');
  });

  it('list monitored names and the sources of each company, and why screening is missing', async () => {
    await t.a.monitorScreeningQuery({ query: { fullName: 'Testavia Sampleova' } });
    const { text } = await page('/console/monitoring');
    expect(rows(text, 'monitoring-row').map((r) => r.slice(1, 3))).toEqual([['Testavia Sampleova', expect.any(String)]]);
    expect(text).toContain('Change a watchlist entry');
    expect(text).toContain('<td>Company A</td><td>paid</td><td>yes</td><td>companies-house</td>');
    const b = (await page('/console/monitoring', keyB)).text;
    expect(b).toContain('Screening is not available to Company B: {&#34;argumentError&#34;:&#34;payment-needed&#34;}');
    expect(b).toContain('<td>Company B</td><td>not paid (payment-needed)</td><td>none (no-trusted-database-sources)</td><td>none</td>');
    expect((await page('/console/monitoring', adminToken)).text).not.toContain('Change a watchlist entry');
  });
});

describe('the live part of a page', () => {
  it('is the part inside #live only, for the script to swap in', async () => {
    await t.a.begin({});
    const live = await page('/console/sessions', keyA, { 'x-console-live': '1' });
    expect(live.status).toBe(200);
    expect(live.text.startsWith('<table aria-label="Sessions, newest first">')).toBe(true);
    expect(live.text).not.toContain('<html');
  });
});

describe('the actions', () => {
  it('each runs its operation and comes back with what it did', async () => {
    const { id } = await t.a.begin({});
    const back = '/console/sessions';
    expect(await act('complete', { c: '0', back, sessionId: id, result: 'manual-check' })).toBe(`${back}?notice=Session finished as manual-check.`);
    expect((await t.control.getSession({ sessionId: id })).result.status).toBe('manual-check');
    expect(await act('additional-information', { c: '0', back, sessionId: id })).toBe(`${back}?notice=Additional information requested.`);
    expect(await act('expire', { c: '0', back, sessionId: id })).toBe(`${back}?notice=Session expired.`);
    expect(await act('delete-session', { c: '0', back, sessionId: id })).toBe(`${back}?notice=Session ${id} deleted.`);
    expect(await act('delivery', { c: '0', back, paused: 'true' })).toBe(`${back}?notice=Delivery paused.`);
    expect((await t.control.getCallbackDelivery({})).result.paused).toBe(true);
    expect(await act('delivery', { c: '0', back, paused: 'false' })).toBe(`${back}?notice=Delivery resumed.`);
    expect((await t.control.getCallbackDelivery({})).result.paused).toBe(false);
    const added = await act('add-blacklist', { c: '0', back, reason: 'Forged', firstName: 'Jane', lastName: '', documentNumber: 'DOC-9' });
    const [record] = (await t.a.listBlacklistRecords({ query: {} })).result.data;
    expect(added).toBe(`${back}?notice=Record ${record!.id} added.`);
    expect(record).toMatchObject({ reason: 'Forged', firstName: 'Jane', documentNumber: 'DOC-9' });
    expect(record).not.toHaveProperty('lastName');
    expect(await act('remove-blacklist', { c: '0', back, id: record!.id })).toBe(`${back}?notice=Record removed.`);
    expect((await t.a.listBlacklistRecords({ query: {} })).result.data).toEqual([]);
    expect(await act('unblock', { c: '0', back, ip: '127.0.0.1' })).toBe(`${back}?notice=127.0.0.1 unblocked.`);
    expect(await act('expire', { c: '0', back, sessionId: 'sess_nope' })).toMatch(/^\/console\/sessions\?error=sandboxExpireSession answered \{"argumentError":"/);
    expect(await act('expire', { c: '0', back: '//evil.example/', sessionId: id })).toMatch(/^\/console\/requests\?/);
    expect(await act('expire', { c: '0', back: '/console//evil.example', sessionId: id })).toMatch(/^\/console\/requests\?/);
  });

  it('deletes users and groups, stops monitoring a name and changes a watchlist entry', async () => {
    const back = '/console/users';
    const user = await t.a.createUser({ email: 'jane@example.org', password: 'fake-password-1' });
    const group = await t.a.makeGroup({ name: 'Reviewers' });
    expect(await act('delete-group', { c: '0', back, groupId: group.result.id })).toBe(`${back}?notice=Group deleted.`);
    expect(await act('delete-user', { c: '0', back, userId: user.result })).toBe(`${back}?notice=User deleted.`);
    expect((await page('/console/users')).text).not.toContain('jane@example.org');
    const monitored = await t.a.monitorScreeningQuery({ query: { fullName: 'Testavia Sampleova' } });
    expect(await act('change-watchlist-entry', { c: '0', back, personId: 'scr-person-0001' })).toBe(`${back}?notice=Watchlist entry scr-person-0001 changed.`);
    expect(await act('remove-monitoring', { c: '0', back, id: monitored.result })).toBe(`${back}?notice=Name no longer monitored.`);
  });

  it('resends a callback and reports its new event ID', async () => {
    await finishedSession();
    const [attempt] = (await t.control.listCallbacks({})).result;
    const location = await act('resend', { c: '0', back: '/console/callbacks', eventId: attempt!.eventId });
    expect(location).toMatch(/^\/console\/callbacks\?notice=Callback queued again as evt_\w+\.$/);
    expect(location).not.toContain(attempt!.eventId);
  });
});
