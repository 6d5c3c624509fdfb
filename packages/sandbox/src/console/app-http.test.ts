// The console's HTTP rules (console/app.ts) that a browser or a tester meets besides the pages: the
// security headers of every answer, the sign-in and its cookie (among other cookies, or malformed), the
// forms' origin and size, the operator's sign-in, the event stream that tells an open page to refresh,
// and every text written into a page escaped.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { adminToken, keyA, keyB, useTestSandbox } from '../sandbox.test-helper.js';

const t = useTestSandbox();
const cookieOf = (key: string) => `idv_console=${encodeURIComponent(key)}`;
const get = (path: string, headers: Record<string, string> = { cookie: cookieOf(keyA) }) => fetch(`${t.sandbox.url}${path}`, { headers, redirect: 'manual' });
const post = (path: string, body: string, headers: Record<string, string> = { cookie: cookieOf(keyA) }) => fetch(`${t.sandbox.url}${path}`, { method: 'POST', headers, body, redirect: 'manual' });

/** Reads an event stream until it has held `text`; fails if the stream ends first. */
function eventStream(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  return {
    async until(text: string) {
      while (!seen.includes(text)) {
        const { done, value } = await reader.read();
        expect(done, `the stream ended before ${JSON.stringify(text)}; it held ${JSON.stringify(seen)}`).toBe(false);
        seen += decoder.decode(value);
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe('every console answer', () => {
  it('forbids framing, sniffing, caching, other origins and referrers', async () => {
    for (const res of [await get('/console/requests'), await get('/console/'), await get('/console/requests', {}), await get('/console/assets/console.css')]) {
      expect(res.headers.get('content-security-policy')).toBe("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('cache-control')).toBe('no-store');
      await res.arrayBuffer();
    }
  });

  it('gives the length of its body', async () => {
    const res = await get('/console/requests');
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(await res.text()));
  });

  it('refuses a method other than GET and POST with 405 and the allowed ones', async () => {
    const res = await fetch(`${t.sandbox.url}/console/requests`, { method: 'PUT', body: 'x', headers: { cookie: cookieOf(keyA) } });
    expect([res.status, res.headers.get('allow'), await res.text()]).toEqual([405, 'GET, POST', 'Method not allowed']);
  });
});

describe('signing in', () => {
  it('takes the admin token and shows the operator every company', async () => {
    const res = await post('/console/sign-in', new URLSearchParams({ key: adminToken }).toString(), {});
    expect([res.status, res.headers.get('location')]).toEqual([303, '/console/requests']);
    expect(res.headers.get('set-cookie')).toBe(`idv_console=${encodeURIComponent(adminToken)}; Path=/console; HttpOnly; SameSite=Strict`);
    expect(await (await get('/console/requests', { cookie: cookieOf(adminToken) })).text()).toContain('Signed in as the operator (every company)');
  });

  it('answers an unknown or missing key with 401 and the sign-in form again', async () => {
    for (const body of ['key=ck_test_nobody_0000', '', 'key=']) {
      const res = await post('/console/sign-in', body, {});
      const text = await res.text();
      expect(res.status).toBe(401);
      expect(text).toContain('<p class="error" role="alert">No sandbox company has this key (and it is not the admin token).</p>');
      expect(text).toContain('action="/console/sign-in"');
    }
  });

  it('finds its cookie among others, and takes a malformed or unknown one as signed out', async () => {
    const among = await get('/console/requests', { cookie: `theme=dark; ${cookieOf(keyA)}; other=x=y` });
    expect(await among.text()).toContain('Signed in as Company A');
    expect(await (await get('/console/requests', { cookie: 'idv_console=%E0%A4' })).headers.get('location')).toBe('/console/');
    expect(await (await get('/console/requests', { cookie: 'xidv_console=' + keyA })).headers.get('location')).toBe('/console/');
    expect(await (await get('/console/requests', { cookie: cookieOf('ck_test_nobody_0000') })).headers.get('location')).toBe('/console/');
    const signedOut = await post('/console/act/expire', 'c=0&sessionId=x', { cookie: 'idv_console=' });
    expect([signedOut.status, await signedOut.text()]).toEqual([401, 'Sign in first']);
    const page = await get('/console', {});
    expect([page.status, (await page.text()).includes('name="key"')]).toEqual([200, true]);
  });

  it('sends a signed-in visitor of /console to the requests', async () => {
    for (const path of ['/console', '/console/']) expect((await get(path)).headers.get('location')).toBe('/console/requests');
  });
});

describe('a console form', () => {
  it('is taken from the sandbox’s own origin, by URL or by host', async () => {
    const { id } = await t.sandbox.a.begin({});
    const host = new URL(t.sandbox.url).host;
    for (const origin of [t.sandbox.url, `http://${host}`]) {
      const res = await post('/console/act/expire', `c=0&sessionId=${id}&back=/console/sessions`, { cookie: cookieOf(keyA), origin });
      expect([res.status, res.headers.get('location')]).toEqual([303, '/console/sessions?notice=Session%20expired.']);
    }
    const forged = await post('/console/sign-in', `key=${keyA}`, { origin: 'http://127.0.0.1:1' });
    expect([forged.status, await forged.text()]).toEqual([403, 'Cross-site form refused']);
  });

  it('may be 16 KiB long, not more', async () => {
    const { id } = await t.sandbox.a.begin({});
    const base = `c=0&sessionId=${id}&back=/console/sessions&pad=`;
    const fits = await post('/console/act/expire', base.padEnd(16 * 1024, 'x'));
    expect(fits.headers.get('location')).toBe('/console/sessions?notice=Session%20expired.');
    const over = await post('/console/act/expire', base.padEnd(16 * 1024 + 1, 'x'));
    expect([over.status, await over.text()]).toEqual([404, 'No such action']);
  });

  it("lets the operator unblock an address no company's request came from, and no one else act as the operator", async () => {
    const res = await post('/console/act/unblock', 'c=-1&back=/console/rate-limit&ip=10.9.8.7', { cookie: cookieOf(adminToken) });
    expect(res.headers.get('location')).toBe(`/console/rate-limit?notice=${encodeURIComponent('10.9.8.7 unblocked.')}`);
    const company = await post('/console/act/unblock', 'c=-1&back=/console/rate-limit&ip=10.9.8.7');
    expect(company.headers.get('location')).toBe(`/console/rate-limit?error=${encodeURIComponent('That is not your company.')}`);
    const other = await post('/console/act/expire', 'c=-1&back=/console/sessions&sessionId=x', { cookie: cookieOf(adminToken) });
    expect(other.headers.get('location')).toBe(`/console/sessions?error=${encodeURIComponent('That is not your company.')}`);
    const { id } = await t.sandbox.b.begin({});
    const asOperator = await post('/console/act/expire', `c=1&back=/console/sessions&sessionId=${id}`, { cookie: cookieOf(adminToken) });
    expect(asOperator.headers.get('location')).toBe(`/console/sessions?notice=${encodeURIComponent('Session expired.')}`);
  });
});

describe('the event stream', () => {
  it("tells an open page of the company's requests", async () => {
    const res = await get('/console/events', { cookie: cookieOf(keyA) });
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control'), res.headers.get('x-accel-buffering'), res.headers.get('connection')]).toEqual([200, 'text/event-stream', 'no-store', 'no', 'keep-alive']);
    const stream = eventStream(res);
    await stream.until('retry: 1000\n\n');
    await t.sandbox.a.begin({});
    await stream.until('event: change\ndata: 1\n\n');
    await stream.cancel();
  });

  it('tells an open page after an action of the console', async () => {
    const res = await get('/console/events', { cookie: cookieOf(keyB) });
    const stream = eventStream(res);
    await stream.until('retry: 1000');
    await post('/console/act/delivery', 'c=1&back=/console/callbacks&paused=true', { cookie: cookieOf(keyB) });
    await stream.until('event: change');
    await stream.cancel();
  });
});

describe('the event stream and callbacks', () => {
  it('tells an open page when a callback attempt ends, though no request came', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { createServer } = await import('node:http');
    const receiver = createServer((req, res) => req.resume().on('end', () => void answered.then(() => res.end('ok'))));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t.sandbox.sandbox.companies.get(keyA)!.callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/cb`;
    try {
      const { id } = await t.sandbox.a.begin({});
      await t.sandbox.control.completeSession({ sessionId: id, result: 'approved' });
      const res = await get('/console/events', { cookie: cookieOf(keyA) });
      const stream = eventStream(res);
      await stream.until('retry: 1000\n\n');
      // The attempt is under way: its end, with no request, is the only change left.
      release();
      await stream.until('event: change\ndata: 1\n\n');
      await stream.cancel();
    } finally {
      release();
      receiver.close();
    }
  });
});

describe('text written into a page', () => {
  it('is escaped, whatever a record holds', async () => {
    await t.sandbox.a.addBlacklistRecord({ query: { reason: `<b>"Tom" & 'Jerry'</b>`, documentNumber: 'DOC-1' } });
    const text = await (await get('/console/blacklist')).text();
    expect(text).toContain('<td>&#60;b&#62;&#34;Tom&#34; &#38; &#39;Jerry&#39;&#60;/b&#62;</td>');
    expect(text).not.toContain('<b>"Tom"');
  });

  it('shows a time as its date and time to the second, and no time as a dash', async () => {
    const { id } = await t.sandbox.a.begin({});
    t.sandbox.clock.advance(1_234);
    const text = await (await get(`/console/sessions/${id}`)).text();
    expect(text).toContain('<dt>Created</dt><dd><time datetime="2026-01-01T00:00:00.000Z">2026-01-01 00:00:00Z</time></dd>');
    expect(text).toContain('<dt>Finished</dt><dd>—</dd>');
  });
});

describe("the console's own requests", () => {
  it('are not in the request log', async () => {
    await get('/console/requests');
    await get('/console/sessions');
    const logged = (await t.sandbox.control.listRequests({})).result;
    expect(logged.filter((r) => r.path.startsWith('/console'))).toEqual([]);
  });

  it('leave a request whose target is no path (absolute form) to the API, which answers it', async () => {
    const { port } = new URL(t.sandbox.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end('GET http://127.0.0.1/console/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text)).on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('are the /console pages only: a path that merely begins with "/console" is an API request, logged', async () => {
    for (const path of ['/console', '/console/', '/console/users', '/consoles', '/console-x']) (await get(path)).body?.cancel();
    // The operator's requests page lists every request, also those that name no company.
    const page = await (await get('/console/requests', { cookie: cookieOf(adminToken) })).text();
    expect([...page.matchAll(/">(\/console[^<]*)<\/a><\/td>/g)].map((m) => m[1]).sort()).toEqual(['/console-x', '/consoles']);
  });
});
