// The company key must never reach a URL, an error's message, stack or inspect output, or a log line.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createCore, keyHeader } from './core.js';
import { createClient, createLegacyClient, createSandboxClient } from './index.js';
import { systemClock } from './rate-limit.js';
import { defaultRetry } from './retry.js';
import { baseUrl, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const settings = { companyKey: fakeKey, rateLimit: false as const, retry: false as const };

function expectNoKey(value: unknown) {
  expect(inspect(value, { depth: 10, showHidden: true })).not.toContain(fakeKey);
  expect(JSON.stringify(value) ?? '').not.toContain(fakeKey);
  expect(String(value)).not.toContain(fakeKey);
  if (value instanceof Error) expect(value.stack ?? '').not.toContain(fakeKey);
}

describe('base URLs', () => {
  it.each([
    ['', 'baseUrl is missing'],
    ['localhost:4010', 'baseUrl is not http(s): localhost:'],
    ['ftp://127.0.0.1', 'baseUrl is not http(s): ftp:'],
    ['http://', 'baseUrl is not a URL'],
    ['http://[::1', 'baseUrl is not a URL'],
    ['https://user:secret@api.example.org', 'baseUrl holds a user name or password'],
    ['https://api.example.org/?env=prod', 'baseUrl has a query or fragment'],
    ['https://api.example.org/#top', 'baseUrl has a query or fragment'],
    ['https://api.example.org/?', 'baseUrl has a query or fragment'],
    [`https://api.example.org/?companyKey=${fakeKey}`, 'baseUrl holds the company key'],
    [`http://${fakeKey}:x`, 'baseUrl holds the company key'],
  ])('%j is refused when the client is made, with a TypeError that names the problem', (url, message) => {
    for (const create of [createClient, createLegacyClient, createSandboxClient]) {
      let error: unknown;
      try {
        create({ ...settings, baseUrl: url });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain(message);
      expectNoKey(error);
    }
  });

  it('accepts http(s) with a path, and drops a trailing slash', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    await createClient({ ...settings, baseUrl: 'https://api.example.org/idv/', fetch }).listUsers();
    expect(sent[0]!.url).toBe('https://api.example.org/idv/list-users');
  });
});

describe('the sandbox callback log, which once took the key in its query', () => {
  it('sends the key in the body or a header, never in the URL', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    await createSandboxClient({ ...settings, baseUrl, fetch }).listCallbacks();
    expect(sent[0]!.url).toBe(`${baseUrl}/sandbox/callbacks`);
    expect([sent[0]!.json?.companyKey, new Headers(sent[0]!.init.headers).get(keyHeader)]).toContain(fakeKey);
  });

  it('leaves the key out of response.url with throwOnError: false, and out of the error', async () => {
    const { fetch } = fakeFetch((request) => {
      const response = json({ argumentError: 'invalid-company-key' }, 400);
      Object.defineProperty(response, 'url', { value: request.url });
      return response;
    });
    const control = createSandboxClient({ ...settings, baseUrl, fetch, throwOnError: false });
    const { error, response } = await control.listCallbacks();
    expect(response?.url).toBe(`${baseUrl}/sandbox/callbacks`);
    expectNoKey(error);
    expectNoKey(response);
  });
});

describe('an operation sent as a GET', () => {
  const meta = { path: '/sandbox/callbacks', method: 'GET', idempotent: true, request: 'query', response: 'json', pathParams: [] } as const;
  const core = (fetch: typeof globalThis.fetch) =>
    createCore({
      baseUrl,
      companyKey: fakeKey,
      keyField: 'companyKey',
      fetch,
      throttle: undefined,
      maxRetries: 0,
      retry: defaultRetry,
      timeoutMs: 0,
      clock: systemClock,
      random: Math.random,
      headers: {},
      log: undefined,
      onRequest: undefined,
      onResponse: undefined,
    });

  it('puts its parameters in the query and the key in a header, never in the URL', async () => {
    const { fetch, sent } = fakeFetch((request) => {
      const response = json({ argumentError: 'invalid-company-key' }, 400);
      Object.defineProperty(response, 'url', { value: request.url });
      return response;
    });
    const { error, response } = await core(fetch)('sandboxListCallbacks', meta, { sessionId: 's-1', companyKey: fakeKey });
    expect(sent[0]!.url).toBe(`${baseUrl}/sandbox/callbacks?sessionId=s-1`);
    expect(new Headers(sent[0]!.init.headers).get(keyHeader)).toBe(fakeKey);
    expect(response?.url).not.toContain(fakeKey);
    expectNoKey(error);
  });
});

describe('errors', () => {
  it('never hold the key: API, network, unreadable answers and 529, with an answer that echoes it', async () => {
    const answers = [
      () => json({ argumentError: 'invalid-company-key', echo: fakeKey }, 400),
      () => new Response(`<html>${fakeKey}</html>`, { status: 502 }),
      () => new Response(`<html>${fakeKey}</html>`, { status: 200 }),
      () => new Response(`Too many requests for ${fakeKey}`, { status: 529 }),
      () => Promise.reject(new TypeError('fetch failed')),
    ];
    for (const answer of answers) {
      const { fetch } = fakeFetch(answer);
      for (const client of [createClient({ ...settings, baseUrl, fetch }), createLegacyClient({ ...settings, baseUrl, fetch })]) {
        const method = 'listUsers' in client ? () => client.listUsers() : () => client.getResult({ session_token: 's' });
        const error = await method().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        expectNoKey(error);
      }
    }
  });

  it('of a timed-out or aborted call never hold the key either', async () => {
    const { fetch } = fakeFetch(
      (request) => new Promise((_resolve, reject) => request.init.signal?.addEventListener('abort', () => reject(request.init.signal?.reason))),
    );
    const idv = createClient({ ...settings, baseUrl, fetch, timeoutMs: 10 });
    expectNoKey(await idv.listUsers().catch((e: unknown) => e));
    expectNoKey(await createSandboxClient({ ...settings, baseUrl, fetch, timeoutMs: 10 }).listCallbacks().catch((e: unknown) => e));
    expectNoKey(idv);
  });
});
