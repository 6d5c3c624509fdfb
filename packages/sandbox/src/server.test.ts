import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultLimits } from './limits.js';
import { adminToken, keyA, startTestSandbox } from './sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(() => t?.close());

/** A POST from a chosen loopback address, so that tests can be two different client IPs. */
function post(url: string, path: string, body: string, { from = '127.0.0.1', type = 'application/json' } = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', localAddress: from, headers: { 'content-type': type } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const listBody = JSON.stringify({ companyKey: keyA });

describe('the rate limit', () => {
  it('answers 529 past the limit in a minute, blocks that IP for the block time, and leaves other IPs alone', async () => {
    t = await startTestSandbox({ rateLimit: 5, blockSeconds: 600 });
    for (let i = 0; i < 5; i++) expect((await post(t.url, '/begin', listBody)).status).toBe(200);
    expect(await post(t.url, '/begin', listBody)).toEqual({ status: 529, text: 'Too many requests' });
    expect((await post(t.url, '/begin', listBody, { from: '127.0.0.2' })).status).toBe(200);
    t.clock.advance(60_000);
    expect((await post(t.url, '/begin', listBody)).status).toBe(529);
    t.clock.advance(540_000);
    expect((await post(t.url, '/begin', listBody)).status).toBe(200);
  });

  it('is lifted by POST /sandbox/reset with the admin token, which is never rate limited; a company reset leaves it', async () => {
    t = await startTestSandbox({ rateLimit: 1 });
    await post(t.url, '/begin', listBody);
    expect((await post(t.url, '/begin', listBody)).status).toBe(529);
    await t.control.reset();
    expect((await post(t.url, '/begin', listBody)).status).toBe(529);
    await t.control.reset({ adminToken });
    expect((await post(t.url, '/begin', listBody)).status).toBe(200);
  });
});

describe('bad input', () => {
  const cases: [string, string, string, string][] = [
    ['malformed JSON', '/begin', '{"companyKey":', 'application/json'],
    ['a JSON array', '/begin', '[]', 'application/json'],
    ['a wrong content type', '/begin', `companyKey=${keyA}`, 'text/plain'],
    ['a wrong field type', '/begin', JSON.stringify({ companyKey: keyA, configId: 42 }), 'application/json'],
    ['a missing key', '/begin', '{}', 'application/json'],
    ['JSON to a form endpoint', '/external-api/result/', JSON.stringify({ company_key: keyA, session_token: 'x' }), 'application/json'],
    ['a malformed form', '/external-api/begin/', '--nope\r\n', 'multipart/form-data; boundary=zzz'],
    ['malformed JSON text in a form field', '/external-api/begin/', `company_key=${keyA}&steps=%5B%7B`, 'application/x-www-form-urlencoded'],
  ];

  it.each(cases)('%s gets a documented 400 code and stores nothing', async (_name, path, body, type) => {
    t = await startTestSandbox();
    const answer = await post(t.url, path, body, { type });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ argumentError: path.includes('result') ? 'session-not-found' : 'wrong-parameters' });
    expect(await t.sandbox.state.sessions.list(keyA)).toEqual([]);
  });

  it('a body over the size limit is refused without reading it all', async () => {
    t = await startTestSandbox();
    const answer = await post(t.url, '/begin', 'x'.repeat(defaultLimits.maxBodyBytes + 1));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ argumentError: 'wrong-parameters' });
  });

  it('an unknown company key gets the operation\'s key code', async () => {
    t = await startTestSandbox();
    expect(JSON.parse((await post(t.url, '/list-blacklist-records', JSON.stringify({ companyKey: 'ck_test_unknown' }))).text)).toEqual({ argumentError: 'invalid-company-key' });
    expect(JSON.parse((await post(t.url, '/begin', JSON.stringify({ companyKey: 'ck_test_unknown' }))).text)).toEqual({ argumentError: 'invalid-access' });
  });

  it('an unknown path is 404', async () => {
    t = await startTestSandbox();
    expect((await post(t.url, '/no-such-operation', '{}')).status).toBe(404);
  });
});

describe('the applicant page', () => {
  it('shows the steps and finishes the session as the tester chooses', async () => {
    t = await startTestSandbox();
    const { id, url } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    const page = await (await fetch(url)).text();
    expect(page).toContain('Identity document');
    expect(page).toContain('Waiting for the applicant');
    const formToken = /name="form_token" value="([^"]+)"/.exec(page)![1]!;
    const done = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'rejected', form_token: formToken }) });
    expect(await done.text()).toContain('Rejected');
    expect((await t.legacyA.getResult({ session_token: id })).result).toBe('rejected');
  });

  it('says so for an unknown session', async () => {
    t = await startTestSandbox();
    const answer = await fetch(`${t.url}/widget/?session_token=sess_unknown`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).toContain('No session has this link');
  });
});
