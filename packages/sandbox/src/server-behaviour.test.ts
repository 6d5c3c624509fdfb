// The server's own rules as a client sees them: which documented code an unknown key and bad input get,
// operation by operation; create-user's field codes; group operations naming the field at fault; JSON text
// form fields; the admin and company resets; an operation without a handler; a refused request drawing no
// ID; the applicant page's codes and messages; plain-text answers; a fault of the sandbox answered 500.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { post, raw, statusOf } from './hostile.test-helper.js';
import { companiesFrom } from './companies.js';
import { adminToken, codeOf, keyA, keyB, startTestSandbox } from './sandbox.test-helper.js';
import { createSandbox } from './server.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.close();
  t = undefined;
});

const start = async (options: Parameters<typeof startTestSandbox>[0] = {}) => (t = await startTestSandbox(options));
const unknownKey = 'ck_test_nobody_0000';

describe('an unknown company key', () => {
  // The most specific code each operation documents: invalid-company-key, company-missing, invalid-access,
  // session-not-found, wrong-parameters, not-found.
  it.each([
    ['/add-blacklist-record', { query: { reason: 'r', firstName: 'A' } }, { argumentError: 'invalid-company-key' }],
    ['/search-screening-person', { query: { fullName: 'Jane Sample', scoreThreshold: 0 }, limit: 10 }, { argumentError: 'company-missing' }],
    ['/begin', {}, { argumentError: 'invalid-access' }],
    ['/result', { sessionId: 'sess_x' }, { argumentError: 'session-not-found' }],
    ['/delete-session', { sessionId: 'sess_x' }, { argumentError: 'wrong-parameters' }],
    ['/list-groups', {}, { argumentError: 'not-found' }],
    ['/sandbox/complete-session', { sessionId: 'sess_x', result: 'approved' }, { argumentError: 'invalid-company-key' }],
  ])('on %s gets %j', async (path, body, expected) => {
    await start();
    const answer = await post(t!.url, path, { companyKey: unknownKey, ...body });
    expect([answer.status, answer.json]).toEqual([400, expected]);
  });

  it('on the legacy interface is read from company_key', async () => {
    await start();
    const answer = await post(t!.url, '/external-api/begin/', `company_key=${unknownKey}`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect([answer.status, answer.json]).toEqual([400, { argumentError: 'invalid-access' }]);
    const known = await post(t!.url, '/external-api/begin/', `company_key=${keyA}`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect([known.status, typeof known.json]).toEqual([200, 'string']);
  });
});

describe('bad input', () => {
  // wrong-parameters, else session-not-found, not-found, access-denied, else the first documented code.
  it.each([
    ['/begin', { argumentError: 'wrong-parameters' }],
    ['/result', { argumentError: 'session-not-found' }],
    ['/list-groups', { argumentError: 'not-found' }],
    ['/search-screening-person', { argumentError: 'access-denied' }],
    ['/end-video-call', { argumentError: 'invalid-access' }],
    ['/create-user', { argumentError: 'invalid-email-format' }],
    ['/make-group', { argumentError: 'wrong-parameters', errorSourceGroup: 'body' }],
    ['/check-in-companies-house', { error: 'wrong-parameters' }],
  ])('to %s (malformed JSON) gets %j', async (path, expected) => {
    await start();
    const answer = await post(t!.url, path, '{"companyKey":');
    expect([answer.status, answer.json]).toEqual([400, expected]);
  });

  it.each([
    ['a name that is not a string', { name: 42 }, 'name'],
    ['a missing name', {}, 'name'],
    ['a member list that is not a list', { name: 'G', memberIds: 'usr_x' }, 'memberIds'],
  ])('to a group operation names the field at fault: %s', async (_name, body, field) => {
    await start();
    const answer = await post(t!.url, '/make-group', { companyKey: keyA, ...body });
    expect([answer.status, answer.json]).toEqual([400, { argumentError: 'wrong-parameters', errorSourceGroup: field }]);
  });

  it('to a schema that other operations break says wrong-parameters without errorSourceGroup', async () => {
    await start();
    expect((await post(t!.url, '/begin', { companyKey: keyA, name: 42 })).json).toEqual({ argumentError: 'wrong-parameters' });
  });

  it.each([
    ['email', { email: 'not-an-address', password: 'long-enough-1' }, 'invalid-email-format'],
    ['password', { email: 'a@example.com', password: 'short' }, 'password-too-short'],
    ['rights', { email: 'a@example.com', password: 'long-enough-1', rights: ['root'] }, 'invalid-rights'],
  ])('to create-user names the rule its %s breaks', async (_field, body, code) => {
    await start();
    expect((await post(t!.url, '/create-user', { companyKey: keyA, ...body })).json).toEqual({ argumentError: code });
  });

  it.each([
    [12345678, 'number'],
    [null, 'null'],
    [true, 'boolean'],
    [['a-long-password'], 'object'],
  ])('to create-user with a password %j that is not a string says so as internalError', async (password, kind) => {
    await start();
    const answer = await post(t!.url, '/create-user', { companyKey: keyA, email: 'a@example.com', password });
    expect([answer.status, answer.json]).toEqual([400, { internalError: `Illegal arguments: password must be a string, got ${kind}` }]);
  });

  it('in a JSON text form field is refused: not JSON, against its schema, or too deep; good JSON text is used', async () => {
    await start();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const begin = (fields: Record<string, string>) => post(t!.url, '/external-api/begin/', new URLSearchParams({ company_key: keyA, ...fields }).toString(), form);
    expect((await begin({ steps: '[{' })).json).toEqual({ argumentError: 'wrong-parameters' });
    expect((await begin({ steps: '{"not":"a list"}' })).json).toEqual({ argumentError: 'wrong-parameters' });
    expect((await begin({ general: '['.repeat(40) + ']'.repeat(40) })).json).toEqual({ argumentError: 'wrong-parameters' });
    expect((await begin({ flags: JSON.stringify({ note: 'x'.repeat(10_001) }) })).json).toEqual({ argumentError: 'wrong-parameters' });
    const ok = await begin({ steps: JSON.stringify([{ type: 'company', key: 'from-form' }]) });
    expect(ok.status).toBe(200);
    const steps = (await t!.a.getResult({ sessionId: ok.json })).result.stepsResults.map((step) => step.key);
    expect(steps).toEqual(['identity-document', 'liveness', 'from-form']);
  });
});

describe('reset', () => {
  it('with the admin token forgets every company\'s data; with a wrong token or on a sandbox without one it is refused', async () => {
    await start();
    const { id: ofA } = await t!.a.begin({});
    const { id: ofB } = await t!.b.begin({});
    expect((await post(t!.url, '/sandbox/reset', { adminToken: 'adm_test_wrong_0000' })).json).toEqual({ argumentError: 'invalid-admin-token' });
    expect((await post(t!.url, '/sandbox/reset', {})).json).toEqual({ argumentError: 'wrong-parameters' });
    expect((await post(t!.url, '/sandbox/reset', { companyKey: unknownKey })).json).toEqual({ argumentError: 'invalid-company-key' });
    expect((await t!.a.listSessionActivities({ sessionId: ofA })).result).toHaveLength(1);
    expect((await post(t!.url, '/sandbox/reset', { adminToken })).json).toEqual({ result: true });
    expect(await codeOf(t!.a.listSessionActivities({ sessionId: ofA }))).toBe('session-not-found');
    expect(await codeOf(t!.b.listSessionActivities({ sessionId: ofB }))).toBe('session-not-found');
    // The seeded sequence starts again.
    expect((await t!.a.begin({})).id).toBe(ofA);

    await t!.close();
    t = await startTestSandbox({ adminToken: undefined });
    expect((await post(t.url, '/sandbox/reset', { adminToken })).json).toEqual({ argumentError: 'invalid-admin-token' });
  });

  it('with a company key forgets that company\'s data only', async () => {
    await start();
    const { id: ofA } = await t!.a.begin({});
    const { id: ofB } = await t!.b.begin({});
    expect((await post(t!.url, '/sandbox/reset', { companyKey: keyB })).json).toEqual({ result: true });
    expect(await codeOf(t!.b.listSessionActivities({ sessionId: ofB }))).toBe('session-not-found');
    expect(await codeOf(t!.a.listSessionActivities({ sessionId: ofA }))).toBe('resolved');
  });
});

describe('an operation without a handler', () => {
  it('answers its documented example, marked as not emulated, or 501 when it documents none', async () => {
    await start({ handlers: {} });
    const begin = await post(t!.url, '/begin', { companyKey: keyA });
    expect(begin.status).toBe(200);
    expect(begin.headers.get('x-sandbox-emulated')).toBe('false');
    expect(begin.json).toEqual(t!.sandbox.routes.find((route) => route.operationId === 'begin')!.example);
    const file = await post(t!.url, '/external-api/result/card-front/', `company_key=${keyA}&session_token=sess_x`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect([file.status, file.json, file.headers.get('x-sandbox-emulated')]).toEqual([501, { error: 'The sandbox does not emulate legacyGetCardFront yet' }, 'false']);
    // Its key is still checked first.
    expect((await post(t!.url, '/begin', { companyKey: unknownKey })).json).toEqual({ argumentError: 'invalid-access' });
  });
});

describe('a refused request', () => {
  it('draws no ID: a company at its record cap leaves the seeded sequence where it was', async () => {
    await start({ limits: { maxRecordsPerCompany: 1 } });
    await t!.a.begin({});
    expect(await codeOf(t!.a.begin({}))).toBe('wrong-parameters');
    const { id } = await t!.b.begin({});
    const fresh = await startTestSandbox();
    try {
      await fresh.a.begin({});
      expect((await fresh.b.begin({})).id).toBe(id);
    } finally {
      await fresh.close();
    }
  });
});

describe('a fault of the sandbox', () => {
  it('is answered 500 with a plain error, and the server goes on', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await start({
      handlers: {
        begin() {
          throw new Error('a bug');
        },
      },
    });
    const answer = await post(t!.url, '/begin', { companyKey: keyA });
    expect([answer.status, answer.json]).toEqual([500, { error: 'sandbox internal error' }]);
    expect(console.error).toHaveBeenCalledWith(new Error('a bug'));
    expect((await post(t!.url, '/list-groups', { companyKey: keyA })).status).toBe(200);
  });
});

describe('plain-text answers', () => {
  it('say what went wrong: an unknown path or method 404, a bad target 400 that closes, over the limit 529', async () => {
    await start({ rateLimit: 1 });
    const missing = await post(t!.url, '/no-such-operation', {});
    expect([missing.status, missing.text, missing.headers.get('content-type')]).toEqual([404, 'Not found', 'text/plain; charset=utf-8']);
    const get = await fetch(`${t!.url}/begin`);
    expect([get.status, await get.text()]).toEqual([404, 'Not found']);
    const target = await raw(t!.url, 'GET http://elsewhere.example/begin HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(statusOf(target)).toBe(400);
    expect(target).toMatch(/\r\nconnection: close\r\n/i);
    expect(target).toMatch(/\r\n\r\nBad request target$/);
    await post(t!.url, '/list-groups', { companyKey: keyA });
    const over = await post(t!.url, '/list-groups', { companyKey: keyA });
    expect([over.status, over.text, over.headers.get('content-type')]).toEqual([529, 'Too many requests', 'text/plain; charset=utf-8']);
    // The control API is not limited.
    expect((await post(t!.url, '/sandbox/callbacks', { companyKey: keyA })).status).toBe(200);
  });

  it('JSON answers say application/json with their length', async () => {
    await start();
    const answer = await post(t!.url, '/begin', { companyKey: keyA });
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.text));
  });
});

describe('the applicant page', () => {
  const formTokenOf = (page: string) => /name="form_token" value="([^"]+)"/.exec(page)![1]!;

  it('is served at /widget and /widget/, and each opening is a PAGE_LOADED activity', async () => {
    await start();
    const { id } = await t!.a.begin({});
    for (const path of ['/widget/', '/widget']) {
      const page = await fetch(`${t!.url}${path}?session_token=${id}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain('Waiting for the applicant');
    }
    expect((await t!.a.listSessionActivities({ sessionId: id })).result.map((a) => a.type)).toEqual(['SESSION_CREATED', 'PAGE_LOADED', 'PAGE_LOADED']);
  });

  it('answers another method 405 with Allow, and a session of no company 404', async () => {
    await start();
    const { id } = await t!.a.begin({});
    const put = await fetch(`${t!.url}/widget/?session_token=${id}`, { method: 'PUT', body: 'x' });
    expect([put.status, put.headers.get('allow'), await put.text()]).toEqual([405, 'GET, POST', 'Method not allowed']);
    for (const token of ['', 'sess_unknown', `${id}x`]) expect((await fetch(`${t!.url}/widget/?session_token=${token}`)).status).toBe(404);
    await t!.a.deleteSession({ sessionId: id });
    expect((await fetch(`${t!.url}/widget/?session_token=${id}`)).status).toBe(404);
  });

  it('refuses a form it cannot read or one out of date with 400, and finishes with the page\'s token', async () => {
    await start();
    const { id, url } = await t!.a.begin({});
    const token = formTokenOf(await (await fetch(url)).text());
    const unreadable = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unreadable.status).toBe(400);
    expect(await unreadable.text()).toContain('The form could not be read: reload the page.');
    for (const fields of [{ result: 'approved' }, { result: 'approved', form_token: `${token}x` }, { result: 'approved', form_token: token.slice(1) }, { result: 'maybe', form_token: token }, { form_token: token }] as Record<string, string>[]) {
      const refused = await fetch(url, { method: 'POST', body: new URLSearchParams(fields) });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('This form is out of date: reload the page.');
    }
    expect((await t!.legacyA.getResult({ session_token: id })).result).toBeUndefined();
    for (const result of ['approved', 'rejected', 'manual-check'] as const) {
      const { id: other, url: page } = await t!.a.begin({});
      const done = await fetch(page, { method: 'POST', body: new URLSearchParams({ result, form_token: formTokenOf(await (await fetch(page)).text()) }) });
      expect(done.status).toBe(200);
      const text = await done.text();
      expect(text).toContain('Thank you: the session is finished.');
      expect(text).toContain({ approved: 'Approved', rejected: 'Rejected', 'manual-check': 'Waiting for a manual check' }[result]);
      expect((await t!.a.listSessionActivities({ sessionId: other })).result.at(-1)).toMatchObject({ type: 'STATUS_CHANGED', data: { status: result } });
    }
  });

  it('says when an expired session can no longer be finished, and changes nothing', async () => {
    await start();
    const { id, url } = await t!.a.begin({ general: { sessionLifetime: 1 } } as never);
    const token = formTokenOf(await (await fetch(url)).text());
    t!.clock.advance(60_000);
    const late = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'approved', form_token: token }) });
    expect(late.status).toBe(200);
    const text = await late.text();
    expect(text).toContain('This session can no longer be finished.');
    expect(text).toContain('This session has expired.');
    expect((await t!.a.listSessionActivities({ sessionId: id })).result.map((a) => a.type)).toEqual(['SESSION_CREATED', 'PAGE_LOADED']);
  });
});

describe('listening', () => {
  it('on an IPv6 address gives applicant URLs with the address in brackets', async () => {
    const sandbox = createSandbox({ companies: companiesFrom({ companies: [{ companyKey: keyA }] }) });
    try {
      const origin = await sandbox.listen(0, '::1');
      expect(origin).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const answer = await post(origin, '/begin', { companyKey: keyA });
      expect(answer.json.url).toBe(`${origin}/widget/?session_token=${answer.json.id}`);
    } finally {
      await sandbox.close();
    }
  });
});
