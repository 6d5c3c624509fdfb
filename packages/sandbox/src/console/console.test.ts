// The console over plain HTTP: sign-in and its cookie, the request log's redaction and isolation, and the
// control operations the console is built on (the browser test drives the pages themselves).
import { describe, expect, it } from 'vitest';
import { adminToken, callbackKeyA, keyA, keyB, useTestSandbox } from '../sandbox.test-helper.js';

const t = useTestSandbox();

async function signIn(url: string, key: string) {
  const res = await fetch(`${url}/console/sign-in`, { method: 'POST', body: new URLSearchParams({ key }), redirect: 'manual' });
  return { res, cookie: res.headers.get('set-cookie') ?? '' };
}

describe('signing in', () => {
  it('keeps the key in an HttpOnly, SameSite=Strict cookie, never in the URL or the page', async () => {
    const { res, cookie } = await signIn(t.sandbox.url, keyA);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/requests');
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/console/);
    const page = await fetch(`${t.sandbox.url}/console/requests`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Signed in as Company A');
    expect(text).not.toContain(keyA);
  });

  it('refuses an unknown key without echoing it', async () => {
    const { res, cookie } = await signIn(t.sandbox.url, 'ck_test_nobody_0000');
    expect(res.status).toBe(401);
    expect(cookie).toBe('');
    expect(await res.text()).not.toContain('ck_test_nobody_0000');
  });

  it('sends a visitor without the cookie to the sign-in page, and refuses a form from another origin', async () => {
    const res = await fetch(`${t.sandbox.url}/console/sessions`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/');
    const { cookie } = await signIn(t.sandbox.url, keyA);
    const forged = await fetch(`${t.sandbox.url}/console/act/expire`, { method: 'POST', headers: { cookie: cookie.split(';')[0]!, origin: 'http://evil.example' }, body: 'c=0&sessionId=x', redirect: 'manual' });
    expect(forged.status).toBe(403);
  });
});

describe('the request log', () => {
  it('lists a company its own requests, newest first, with every key redacted', async () => {
    const { id } = await t.sandbox.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.sandbox.b.begin({});
    const listed = await t.sandbox.control.listRequests({});
    const begins = listed.result.filter((r) => r.operation === 'begin');
    expect(begins).toHaveLength(1);
    expect(begins[0]!.sessionId).toBe(id);
    expect(begins[0]!.request.text).toContain('"companyKey": "[redacted]"');
    expect(JSON.stringify(listed)).not.toContain(keyA);
    expect(JSON.stringify(listed)).not.toContain(keyB);
    expect(listed.result[0]!.time >= listed.result[listed.result.length - 1]!.time).toBe(true);
    const one = await t.sandbox.control.getRequest({ requestId: begins[0]!.id });
    expect(one.result.response.text).toContain(id);
  });

  it('filters by operation, status, session and text', async () => {
    const { id } = await t.sandbox.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.sandbox.a.begin({});
    await t.sandbox.legacyA.getResult({ session_token: 'sess_nope' }).catch(() => undefined);
    const control = t.sandbox.control;
    expect((await control.listRequests({ operation: 'begin' })).result).toHaveLength(2);
    expect((await control.listRequests({ status: 400 })).result.map((r) => r.operation)).toEqual(['legacyGetResult']);
    expect((await control.listRequests({ sessionId: id })).result.map((r) => r.operation)).toEqual(['begin']);
    // The log's own listings hold that text too (in their answers): only the API's requests are counted.
    expect((await control.listRequests({ text: 'CFG-KYC-STANDARD' })).result.filter((r) => r.api !== 'sandbox')).toHaveLength(1);
  });

  it('never shows one company another company\'s request', async () => {
    await t.sandbox.a.begin({});
    const [theirs] = (await t.sandbox.control.listRequests({ operation: 'begin' })).result;
    expect((await t.sandbox.controlB.listRequests({})).result.filter((r) => r.operation === 'begin')).toEqual([]);
    const refused = await t.sandbox.sandbox.invoke('sandboxGetRequest', { companyKey: keyB, requestId: theirs!.id });
    expect(refused).toEqual({ status: 400, json: { argumentError: 'not-found' } });
  });
});

describe('callbacks: pause, resume and resend', () => {
  it('holds deliveries while paused and resends a logged callback with a new event ID', async () => {
    const received: unknown[] = [];
    const { createServer } = await import('node:http');
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    const company = t.sandbox.sandbox.companies.get(keyA)!;
    company.callbackUrl = `http://127.0.0.1:${port}/cb`;
    try {
      await t.sandbox.control.setCallbackDelivery({ paused: true });
      expect((await t.sandbox.control.getCallbackDelivery({})).result.paused).toBe(true);
      const { id } = await t.sandbox.a.begin({});
      await t.sandbox.control.completeSession({ sessionId: id, result: 'approved' });
      await new Promise((r) => setTimeout(r, 100));
      expect(received).toEqual([]);
      await t.sandbox.control.setCallbackDelivery({ paused: false });
      await t.sandbox.sandbox.dispatcher.idle();
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ callbackApiKey: callbackKeyA, type: 'session-change', sessionId: id });
      const [first] = (await t.sandbox.control.listCallbacks({})).result;
      const again = await t.sandbox.control.resendCallback({ eventId: first!.eventId });
      expect(again.result).not.toBe(first!.eventId);
      await t.sandbox.sandbox.dispatcher.idle();
      expect(received).toHaveLength(2);
      expect(received[1]).toEqual(received[0]);
      expect(await t.sandbox.sandbox.invoke('sandboxResendCallback', { companyKey: keyB, eventId: first!.eventId })).toEqual({ status: 400, json: { argumentError: 'not-found' } });
    } finally {
      receiver.close();
    }
  });
});

describe('sessions', () => {
  it('lists them newest first with their links, and expires one', async () => {
    const first = await t.sandbox.a.begin({ configId: 'cfg-kyc-additional-info' });
    const second = await t.sandbox.a.begin({});
    const { result } = await t.sandbox.control.listSessions({});
    expect(result.map((s) => s.id)).toEqual([second.id, first.additionalSessionId, first.id]);
    expect(result[2]!.childIds).toEqual([first.additionalSessionId]);
    await t.sandbox.control.expireSession({ sessionId: second.id });
    expect((await t.sandbox.control.getSession({ sessionId: second.id })).result.expired).toBe(true);
    expect(await t.sandbox.sandbox.invoke('sandboxGetSession', { companyKey: keyB, sessionId: second.id })).toEqual({ status: 400, json: { argumentError: 'invalid-access' } });
  });
});

describe('rate limit', () => {
  it('shows a company the addresses of its requests and lifts a block', async () => {
    const limited = t.sandbox.sandbox;
    await t.sandbox.a.begin({});
    expect((await t.sandbox.controlB.listRateLimit({})).result).toEqual([]);
    const [entry] = (await t.sandbox.control.listRateLimit({})).result;
    expect(entry).toMatchObject({ ip: '127.0.0.1', blockedUntil: null });
    // Not blocked: left as it is, with the same answer; an address none of the company's requests came from is not found.
    expect(await limited.invoke('sandboxUnblockAddress', { companyKey: keyA, ip: '127.0.0.1' })).toEqual({ status: 200, json: { result: true } });
    expect((await t.sandbox.control.listRateLimit({})).result[0]).toMatchObject({ ip: '127.0.0.1', blockedUntil: null });
    expect(await limited.invoke('sandboxUnblockAddress', { companyKey: keyA, ip: '10.9.8.7' })).toEqual({ status: 400, json: { argumentError: 'not-found' } });
    expect(adminToken).toBeTruthy();
  });
});

describe('hostile input to the console', () => {
  it('answers malformed paths, forms and methods without a 5xx', async () => {
    const { cookie } = await signIn(t.sandbox.url, keyA);
    const headers = { cookie: cookie.split(';')[0]! };
    const statuses: Record<string, number> = {};
    for (const path of ['/console/requests/%E0%A4', '/console/sessions/%', '/console/media/0/%E0/pdf', '/console/media/99/x/pdf', '/console/media/0/x/nope', '/console/nope', '/console//requests']) {
      statuses[path] = (await fetch(`${t.sandbox.url}${path}`, { headers, redirect: 'manual' })).status;
    }
    statuses['POST big form'] = (await fetch(`${t.sandbox.url}/console/act/expire`, { method: 'POST', headers, body: 'x='.padEnd(100_000, 'y'), redirect: 'manual' })).status;
    statuses['POST unknown action'] = (await fetch(`${t.sandbox.url}/console/act/nope`, { method: 'POST', headers, body: 'c=0', redirect: 'manual' })).status;
    statuses['POST another company'] = (await fetch(`${t.sandbox.url}/console/act/expire`, { method: 'POST', headers, body: 'c=1&sessionId=x&back=/console/sessions', redirect: 'manual' })).status;
    statuses['DELETE'] = (await fetch(`${t.sandbox.url}/console/requests`, { method: 'DELETE', headers })).status;
    expect(statuses).toEqual({
      '/console/requests/%E0%A4': 404,
      '/console/sessions/%': 404,
      '/console/media/0/%E0/pdf': 404,
      '/console/media/99/x/pdf': 404,
      '/console/media/0/x/nope': 404,
      '/console/nope': 404,
      '/console//requests': 404,
      'POST big form': 404,
      'POST unknown action': 404,
      'POST another company': 303,
      DELETE: 405,
    });
  });

  it('refuses an action for a company the signed-in company is not, and changes nothing', async () => {
    const { id } = await t.sandbox.b.begin({});
    const { cookie } = await signIn(t.sandbox.url, keyA);
    const res = await fetch(`${t.sandbox.url}/console/act/expire`, { method: 'POST', headers: { cookie: cookie.split(';')[0]! }, body: `c=1&sessionId=${id}&back=/console/sessions`, redirect: 'manual' });
    expect(res.headers.get('location')).toBe(`/console/sessions?error=${encodeURIComponent('That is not your company.')}`);
    expect((await t.sandbox.controlB.getSession({ sessionId: id })).result.expired).toBe(false);
  });

  it('keeps at most maxStreams event streams open', async () => {
    const { maxStreams } = await import('./app.js');
    const { cookie } = await signIn(t.sandbox.url, keyA);
    const controller = new AbortController();
    const open = await Promise.all(Array.from({ length: maxStreams }, () => fetch(`${t.sandbox.url}/console/events`, { headers: { cookie: cookie.split(';')[0]! }, signal: controller.signal })));
    expect(open.every((r) => r.status === 200)).toBe(true);
    const over = await fetch(`${t.sandbox.url}/console/events`, { headers: { cookie: cookie.split(';')[0]! } });
    expect([over.status, over.headers.get('retry-after'), over.headers.get('content-type'), await over.text()]).toEqual([503, '5', 'text/plain; charset=utf-8', 'Too many open consoles']);
    controller.abort();
    // A closed console frees its place (the server sees the close a moment later).
    let again: Response | undefined;
    for (let tries = 0; tries < 200 && again?.status !== 200; tries++) {
      await again?.text();
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 25));
      again = await fetch(`${t.sandbox.url}/console/events`, { headers: { cookie: cookie.split(';')[0]! } });
    }
    expect(again!.status).toBe(200);
    await again!.body!.cancel();
  });
});

describe('copy as curl', () => {
  it('gives a command that, run with the key in $IDV_COMPANY_KEY, makes the same request', async () => {
    const { execFile } = await import('node:child_process');
    const { curlCommand } = await import('./pages-requests.js');
    await t.sandbox.a.addBlacklistRecord({ query: { reason: "It's fraud", documentNumber: 'DOC-CURL-1' } });
    const [logged] = (await t.sandbox.control.listRequests({ operation: 'addBlacklistRecord' })).result;
    await t.sandbox.control.reset({});
    const command = curlCommand(logged!, t.sandbox.url);
    expect(command).not.toContain(keyA);
    const output = await new Promise<string>((resolve, reject) =>
      execFile('sh', ['-c', `${command} --silent`], { env: { PATH: process.env.PATH, IDV_COMPANY_KEY: keyA } }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    expect(JSON.parse(output)).toEqual({ result: expect.any(String) });
    expect((await t.sandbox.a.listBlacklistRecords({ query: {} })).result.data).toMatchObject([{ reason: "It's fraud", documentNumber: 'DOC-CURL-1' }]);
  });
});

describe('copy as a client call', () => {
  it('names a method the typed client has, for the current and legacy interfaces and the control API', async () => {
    const { clientCall } = await import('./pages-requests.js');
    const { id } = await t.sandbox.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.sandbox.legacyA.getResult({ session_token: id });
    await t.sandbox.control.completeSession({ sessionId: id, result: 'approved' });
    const clients: Record<string, unknown> = { idv: t.sandbox.a, legacy: t.sandbox.legacyA, control: t.sandbox.control };
    const calls = (await t.sandbox.control.listRequests({})).result.filter((r) => r.api !== 'sandbox' || r.operation === 'sandboxCompleteSession').map(clientCall);
    expect(calls).toEqual([
      `await control.completeSession(${JSON.stringify({ sessionId: id, result: 'approved' }, null, 2)});`,
      `await legacy.getResult(${JSON.stringify({ session_token: id }, null, 2)});`,
      `await idv.begin(${JSON.stringify({ configId: 'cfg-kyc-standard-01' }, null, 2)});`,
    ]);
    for (const call of calls) {
      const [, client, method] = /^await (\w+)\.(\w+)\(/.exec(call)!;
      expect(typeof (clients[client!] as Record<string, unknown>)[method!], call).toBe('function');
    }
  });
});
