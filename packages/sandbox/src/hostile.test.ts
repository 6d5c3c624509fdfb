// Hostile and careless input (issue "Hardening", W2 to W9 for the sandbox): each reproduction of the
// issue, exact, as a test. Plain HTTP only (hostile.test-helper.ts), so each sends exactly its bytes.
import { afterEach, describe, expect, it } from 'vitest';
import { adminToken, deepArray, deepObject, keyA, keyB, post, raw, startSandbox, statusOf } from './hostile.test-helper.js';
import { defaultLimits } from './limits.js';

let t: Awaited<ReturnType<typeof startSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const begin = async (url: string, key = keyA, extra: Record<string, unknown> = {}) => (await post(url, '/begin', { companyKey: key, configId: 'cfg-kyc-standard-01', ...extra })).json as { id: string; url: string };
const formTokenOf = (page: string) => /name="form_token" value="([^"]+)"/.exec(page)?.[1];

describe('W2 and W7: unguessable IDs that never repeat', () => {
  it('without a seed, IDs are 128 random bits: two sandboxes, a reset and a restart never give the same one', async () => {
    t = await startSandbox();
    const first = await begin(t.url);
    expect(first.id).toMatch(/^sess_[0-9a-f]{32}$/);
    const other = await startSandbox();
    try {
      expect((await begin(other.url)).id).not.toBe(first.id);
    } finally {
      await other.close();
    }
    expect((await post(t.url, '/sandbox/reset', { adminToken })).status).toBe(200);
    expect((await begin(t.url)).id).not.toBe(first.id);
  });

  it('one company\'s IDs say nothing about the next ones: 1,000 IDs share no 32-bit half with each other', async () => {
    t = await startSandbox();
    const halves = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const id = (await t.sandbox.invoke('begin', { companyKey: i % 2 ? keyA : keyB })).json as { id: string };
      for (const half of id.id.slice(5).match(/.{8}/g)!) halves.add(half);
    }
    expect(halves.size).toBe(4_000);
  });

  it('with a seed, the same requests give the same IDs (tests only), also after an admin reset', async () => {
    t = await startSandbox({ seed: 7 });
    const first = await begin(t.url);
    await post(t.url, '/sandbox/reset', { adminToken });
    expect((await begin(t.url)).id).toBe(first.id);
  });
});

describe('W2: the applicant page', () => {
  it('refuses a finishing POST without the form token of the page, and changes nothing', async () => {
    t = await startSandbox();
    const { id, url } = await begin(t.url);
    const forged = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'rejected' }) });
    expect(forged.status).toBe(400);
    const other = await begin(t.url);
    const otherToken = formTokenOf(await (await fetch(other.url)).text())!;
    const borrowed = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'rejected', form_token: otherToken }) });
    expect(borrowed.status).toBe(400);
    expect((await t.sandbox.state.sessions.get(keyA, id))!.status).toBe('created');

    const token = formTokenOf(await (await fetch(url)).text())!;
    const done = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'rejected', form_token: token }) });
    expect(done.status).toBe(200);
    expect((await t.sandbox.state.sessions.get(keyA, id))!.status).toBe('rejected');
  });

  it('is rate-limited like the API: guessing session links gets 529', async () => {
    t = await startSandbox({ rateLimit: 20 });
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push((await fetch(`${t.url}/widget/?session_token=sess_${String(i).padStart(32, '0')}`)).status);
    expect(answers.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(answers.slice(20)).toEqual([529, 529, 529, 529, 529]);
  });

  it('cannot be framed: X-Frame-Options DENY and a CSP with frame-ancestors \'none\'', async () => {
    t = await startSandbox();
    const { url } = await begin(t.url);
    for (const response of [await fetch(url), await fetch(`${t.url}/widget/?session_token=nope`)]) {
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });
});

describe('W4: the control API acts on the calling company only', () => {
  it('reset needs a key: none gets wrong-parameters, a wrong one invalid-company-key, and nothing is forgotten', async () => {
    t = await startSandbox();
    const { id } = await begin(t.url);
    expect((await post(t.url, '/sandbox/reset', {})).json).toEqual({ argumentError: 'wrong-parameters' });
    expect((await post(t.url, '/sandbox/reset', { companyKey: 'ck_test_nobody_0000' })).json).toEqual({ argumentError: 'invalid-company-key' });
    expect((await post(t.url, '/sandbox/reset', { adminToken: 'adm_test_wrong_0000' })).json).toEqual({ argumentError: 'invalid-admin-token' });
    expect(await t.sandbox.state.sessions.get(keyA, id)).toBeDefined();
  });

  it('a company reset forgets that company\'s data only; everything needs the admin token', async () => {
    t = await startSandbox();
    const a = await begin(t.url, keyA);
    const b = await begin(t.url, keyB);
    expect((await post(t.url, '/sandbox/reset', { companyKey: keyB })).json).toEqual({ result: true });
    expect(await t.sandbox.state.sessions.get(keyA, a.id)).toBeDefined();
    expect(await t.sandbox.state.sessions.get(keyB, b.id)).toBeUndefined();
    expect((await post(t.url, '/sandbox/reset', { adminToken })).json).toEqual({ result: true });
    expect(await t.sandbox.state.sessions.get(keyA, a.id)).toBeUndefined();
  });

  it('a sandbox started without an admin token has no reset of everything', async () => {
    t = await startSandbox({ adminToken: undefined });
    const { id } = await begin(t.url);
    expect((await post(t.url, '/sandbox/reset', { adminToken: 'anything' })).json).toEqual({ argumentError: 'invalid-admin-token' });
    expect(await t.sandbox.state.sessions.get(keyA, id)).toBeDefined();
  });

  it('the callback log takes the key in the body: a GET with the key in the URL is not served', async () => {
    t = await startSandbox();
    expect((await fetch(`${t.url}/sandbox/callbacks?companyKey=${keyA}`)).status).toBe(404);
    expect((await post(t.url, '/sandbox/callbacks', { companyKey: keyA })).json).toEqual({ result: [] });
    expect((await post(t.url, '/sandbox/callbacks', { companyKey: 'ck_test_nobody_0000' })).json).toEqual({ argumentError: 'invalid-company-key' });
  });
});

describe('W3 and W8: limits on what a request may hold', () => {
  it('a name over the text limit gets wrong-parameters and consumes no ID', async () => {
    t = await startSandbox({ seed: 3 });
    const refused = await post(t.url, '/begin', { companyKey: keyA, name: 'x'.repeat(defaultLimits.maxTextLength + 1) });
    expect(refused.json).toEqual({ argumentError: 'wrong-parameters' });
    const accepted = await begin(t.url, keyA, { name: 'x'.repeat(defaultLimits.maxTextLength) });
    const fresh = await startSandbox({ seed: 3 });
    try {
      expect((await begin(fresh.url, keyA, { name: 'y' })).id).toBe(accepted.id);
    } finally {
      await fresh.close();
    }
  });

  it('a begin its handler refuses (a lifetime that is no number) gives back the IDs it drew', async () => {
    t = await startSandbox({ seed: 9 });
    expect((await post(t.url, '/begin', { companyKey: keyA, general: { sessionLifetime: 'soon' } })).json).toEqual({ argumentError: 'wrong-parameters' });
    const next = await begin(t.url);
    const fresh = await startSandbox({ seed: 9 });
    try {
      expect((await begin(fresh.url)).id).toBe(next.id);
    } finally {
      await fresh.close();
    }
  });

  it.each(['flags', 'steps', 'general'])('5,000 levels of JSON in begin\'s %s give 400 wrong-parameters, not 500, and consume no ID', async (field) => {
    t = await startSandbox({ seed: 5 });
    const nested = field === 'steps' ? deepArray(5_000) : deepObject(5_000);
    const refused = await post(t.url, '/begin', `{"companyKey":"${keyA}","${field}":${nested}}`);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ argumentError: 'wrong-parameters' });
    expect(await t.sandbox.state.sessions.count(keyA)).toBe(0);
    const next = await begin(t.url);
    const fresh = await startSandbox({ seed: 5 });
    try {
      expect((await begin(fresh.url)).id).toBe(next.id);
    } finally {
      await fresh.close();
    }
  });

  it('deep JSON text in a legacy form field gets the documented 400 too', async () => {
    t = await startSandbox();
    const form = new FormData();
    form.append('company_key', keyA);
    form.append('flags', deepObject(5_000));
    const answer = await fetch(`${t.url}/external-api/begin/`, { method: 'POST', body: form });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ argumentError: 'wrong-parameters' });
  });

  it('a file of nearly 16 MiB is read without a 500 (base64 is never checked by a regular expression)', async () => {
    t = await startSandbox();
    const bytes = Buffer.alloc(12 * 1024 * 1024 - 1_000, 7);
    bytes.set([0xff, 0xd8, 0xff]);
    const spoofing = await post(t.url, '/check-spoofing', { companyKey: keyA, file: bytes.toString('base64') });
    expect(spoofing.status, spoofing.text).toBe(200);
    const { id } = await begin(t.url);
    const upload = await post(t.url, '/upload-file', { companyKey: keyA, sessionId: id, stepKey: 'documents', questionKey: 'proof-of-address', content: `data:image/jpeg;base64,${bytes.toString('base64')}` });
    expect(upload.status, upload.text).toBe(200);
    expect((await t.sandbox.state.files.list(keyA))[0]!.bytes.length).toBe(bytes.length);
  });

  it('limit: 1e400 (Infinity once parsed) gets wrong-parameters, never a null limit', async () => {
    t = await startSandbox();
    const answer = await post(t.url, '/list-blacklist-records', `{"companyKey":"${keyA}","query":{"limit":1e400}}`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ argumentError: 'wrong-parameters' });
  });

  it('a body over the limit of its operation is refused: 1 MiB for begin, 16 MiB for uploads', async () => {
    t = await startSandbox();
    // Every string, array and object within its own limits; only the body as a whole is too large.
    const general = { notes: Array.from({ length: 1_000 }, () => 'x'.repeat(1_100)) };
    expect(JSON.stringify(general).length).toBeGreaterThan(defaultLimits.maxBodyBytes);
    expect((await post(t.url, '/begin', { companyKey: keyA, general })).json).toEqual({ argumentError: 'wrong-parameters' });
    expect(await t.sandbox.state.sessions.count(keyA)).toBe(0);
  });
});

describe('W9: malformed request targets and framing', () => {
  const requests: [string, string][] = [
    ['GET //', 'GET // HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['GET //[', 'GET //[ HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['POST //begin', 'POST //begin HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'],
    ['an absolute-form target', 'GET http://evil.example/begin HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a target of percent signs', 'POST /check-in-% HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'],
    ['a widget target with a broken escape', 'GET /widget/?session_token=%E2%82 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['two content lengths', 'POST /begin HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
    ['a bad chunk size', 'POST /begin HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
    ['a header without a colon', 'GET /begin HTTP/1.1\r\nHost x\r\n\r\n'],
    ['a body shorter than its length', 'POST /begin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\nConnection: close\r\n\r\n{}'],
  ];

  it.each(requests)('%s gets a 4xx, never a 500', async (_name, bytes) => {
    t = await startSandbox({ limits: {} });
    t.sandbox.server.requestTimeout = 1_000;
    const answer = await raw(t.url, bytes, 3_000);
    const status = statusOf(answer);
    // A request cut short may get no answer at all (the server waits, then closes): never a 5xx.
    if (status !== 0 || !bytes.includes('Content-Length: 10')) expect(status, answer).toBeGreaterThanOrEqual(400);
    expect(status, answer).toBeLessThan(500);
  });
});

describe('the request log', () => {
  it('has one line per request (method, path, operation, status, ms, company name) and never a key', async () => {
    const lines: string[] = [];
    t = await startSandbox({ log: (line) => lines.push(line) });
    await begin(t.url);
    await post(t.url, `/begin?companyKey=${keyA}`, { companyKey: keyB });
    await post(t.url, `/check-in-${keyA}`, { companyKey: keyA });
    await post(t.url, '/sandbox/reset', { adminToken });
    await fetch(`${t.url}/widget/?session_token=nope`);
    await raw(t.url, 'GET http://evil.example/ HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^POST \/begin begin 200 \d+\.\dms "Company A"$/);
    expect(lines[1]).toMatch(/^POST \/begin begin 200 \d+\.\dms "Company B"$/);
    expect(lines[2]).toMatch(/^POST \/check-in-\[redacted\] checkInRegistry 400 \d+\.\dms "Company A"$/);
    expect(lines[3]).toMatch(/^POST \/sandbox\/reset sandboxReset 200 \d+\.\dms "\(admin\)"$/);
    expect(lines[4]).toMatch(/^GET \/widget\/ applicantPage 404 \d+\.\dms -$/);
    expect(lines[5]).toMatch(/^GET - - 400 \d+\.\dms -$/);
    for (const secret of [keyA, keyB, adminToken]) expect(lines.join('\n')).not.toContain(secret);
  });
});
