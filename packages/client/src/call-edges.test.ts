// Edges of a call a user meets: odd answers, odd options, the exact retry arithmetic, what errors say.
import { describe, expect, it } from 'vitest';
import { assertServerSide } from './browser-guard.js';
import { createCore } from './core.js';
import { createClient, createFetchClient, createLegacyClient, createThrottle, IdvApiError, IdvAuthenticationError, IdvNetworkError } from './index.js';
import { defaultRetry } from './retry.js';
import { systemClock } from './rate-limit.js';
import { baseUrl, fakeClock, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const settings = { companyKey: fakeKey, baseUrl, rateLimit: false as const };
const status = (code: number, headers: Record<string, string> = {}) => new Response('<html>busy</html>', { status: code, headers });

describe('answers', () => {
  it('an empty 200 is no data, not an unreadable answer', async () => {
    const { fetch } = fakeFetch(() => new Response('', { status: 200 }));
    await expect(createClient({ ...settings, fetch }).deleteUser({ userId: 'u-1' })).resolves.toBeUndefined();
  });

  it('an unreadable 200 keeps only the start of its body (200 characters)', async () => {
    const page = `<html>${'x'.repeat(1000)}</html>`;
    const { fetch } = fakeFetch(() => new Response(page, { status: 200 }));
    const error = await createClient({ ...settings, fetch }).listUsers().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'IdvResponseError', bodyStart: page.slice(0, 200) });
  });

  it('an answer that echoes the key carries [redacted] instead', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'user-not-found', echo: fakeKey }, 400));
    const error = (await createClient({ ...settings, fetch }).deleteUser({ userId: 'u' }).catch((e: unknown) => e)) as IdvApiError<{ echo: string }>;
    expect(error.body.echo).toBe('[redacted]');
  });

  it('a 400 whose body is JSON null or a sentence has no code', async () => {
    for (const body of ['null', JSON.stringify({ argumentError: 'session not found' })]) {
      const { fetch } = fakeFetch(() => new Response(body, { status: 400 }));
      const error = await createClient({ ...settings, fetch }).deleteUser({ userId: 'u' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdvApiError);
      expect((error as IdvApiError).code).toBeUndefined();
    }
  });

  it('access-denied on an operation that sends only the key means the key', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'access-denied' }, 400));
    await expect(createClient({ ...settings, fetch }).listUsers()).rejects.toBeInstanceOf(IdvAuthenticationError);
  });

  it('a text operation gives the text as it came', async () => {
    const { fetch } = fakeFetch(() => new Response('plain words', { status: 200 }));
    const call = createCore({ baseUrl, companyKey: fakeKey, keyField: 'companyKey', fetch, throttle: undefined, maxRetries: 0, retry: defaultRetry, timeoutMs: 0, clock: systemClock, random: Math.random, headers: {}, log: undefined, onRequest: undefined, onResponse: undefined });
    const result = await call('readText', { path: '/text', method: 'POST', idempotent: true, request: 'json', response: 'text', pathParams: [] }, {});
    expect(result.data).toBe('plain words');
  });

  it('a GET operation with nothing but the key has no query string', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const call = createCore({ baseUrl, companyKey: fakeKey, keyField: 'companyKey', fetch, throttle: undefined, maxRetries: 0, retry: defaultRetry, timeoutMs: 0, clock: systemClock, random: Math.random, headers: {}, log: undefined, onRequest: undefined, onResponse: undefined });
    await call('list', { path: '/list', method: 'GET', idempotent: true, request: 'query', response: 'json', pathParams: [] }, { companyKey: fakeKey });
    expect(sent[0]!.url).toBe(`${baseUrl}/list`);
  });
});

describe('retries', () => {
  it('wait the full-jitter delay of the attempt after a 503 (half of 100, then of 200 ms)', async () => {
    const clock = fakeClock();
    const { fetch } = fakeFetch((_r, i) => (i < 2 ? status(503) : json({ result: [] })));
    await createClient({ ...settings, fetch, clock, random: () => 0.5, retry: { baseDelayMs: 100 } }).listUsers();
    expect(clock.sleeps).toEqual([50, 100]);
  });

  it('honour a Retry-After exactly as long as maxRetryAfterMs', async () => {
    const clock = fakeClock();
    const { fetch, sent } = fakeFetch((_r, i) => (i === 0 ? status(503, { 'retry-after': '2' }) : json({ result: [] })));
    await createClient({ ...settings, fetch, clock, retry: { maxRetryAfterMs: 2000 } }).listUsers();
    expect(clock.sleeps).toEqual([2000]);
    expect(sent).toHaveLength(2);
  });

  it('never repeat a 505 (HTTP version not supported)', async () => {
    const { fetch, sent } = fakeFetch(() => status(505));
    await expect(createClient({ ...settings, fetch, clock: fakeClock() }).listUsers()).rejects.toMatchObject({ status: 505, attempts: 1 });
    expect(sent).toHaveLength(1);
  });

  it('end with an aborted network error when the caller aborts during the wait', async () => {
    const controller = new AbortController();
    const clock = { now: () => 0, sleep: async () => Promise.reject(controller.signal.reason) };
    const { fetch } = fakeFetch(() => status(503));
    controller.abort();
    const error = await createClient({ ...settings, fetch, clock }).listUsers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvNetworkError);
    expect(error).toMatchObject({ reason: 'aborted', attempts: 1 });
  });

  it('say why they retry in the log: no answer, and its kind', async () => {
    const lines: string[] = [];
    const logger = { debug: () => {}, info: () => {}, warn: (m: string) => lines.push(m) };
    const { fetch } = fakeFetch((_r, i) => (i === 0 ? Promise.reject(new TypeError('fetch failed')) : json({ result: [] })));
    const { requestId } = await createClient({ ...settings, fetch, clock: fakeClock(), random: () => 0, logger, logLevel: 'warn' }).listUsers.withResponse();
    expect(lines).toEqual([`[idv] ${requestId} listUsers: no answer (network), retry 1 of 2 in 0 ms`]);
  });
});

describe('a waiting throttle', () => {
  it('ends the call as aborted, with no attempt sent, when the caller aborts', async () => {
    const throttle = createThrottle(1, { clock: fakeClock() });
    await throttle.acquire();
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const controller = new AbortController();
    const call = createClient({ ...settings, fetch, rateLimit: { throttle } }).listUsers(undefined, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'IdvNetworkError', reason: 'aborted', attempts: 0 });
    expect(sent).toHaveLength(0);
  });
});

describe('hooks', () => {
  it('see how long an attempt took', async () => {
    const durations: number[] = [];
    const { fetch } = fakeFetch(() => json({ result: [] }));
    await createClient({ ...settings, fetch, onResponse: (info) => durations.push(info.durationMs) }).listUsers();
    expect(durations[0]).toBeGreaterThanOrEqual(0);
    expect(durations[0]).toBeLessThan(10_000);
  });
});

describe('errors', () => {
  it('are named after their class', async () => {
    const names: string[] = [];
    for (const answer of [() => json({ argumentError: 'user-not-found' }, 400), () => json({ argumentError: 'invalid-company-key' }, 400), () => new Response('x', { status: 529 }), () => new Response('<html>', { status: 200 })]) {
      const { fetch } = fakeFetch(answer);
      const error = (await createClient({ ...settings, fetch }).deleteUser({ userId: 'u' }).catch((e: unknown) => e)) as Error;
      names.push(error.name);
      expect(String(error)).toMatch(new RegExp(`^${error.name}: `));
    }
    expect(names).toEqual(['IdvApiError', 'IdvAuthenticationError', 'IdvRateLimitError', 'IdvResponseError']);
  });

  it('have no cause when there was none', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'user-not-found' }, 400));
    const error = (await createClient({ ...settings, fetch }).deleteUser({ userId: 'u' }).catch((e: unknown) => e)) as Error;
    expect('cause' in error).toBe(false);
  });
});

describe('options', () => {
  it('refuse a key that is not a string', () => {
    expect(() => createClient({ companyKey: 42 as never, baseUrl })).toThrow(new TypeError('companyKey is required'));
    expect(() => createFetchClient({ companyKey: 42 as never, baseUrl })).toThrow(new TypeError('companyKey is required'));
  });

  it('check the base URL: its type, scheme, user, and trailing slashes', async () => {
    const made = (url: unknown) => () => createClient({ companyKey: fakeKey, baseUrl: url as string });
    expect(made(42)).toThrow(new TypeError('baseUrl is missing'));
    expect(made('xhttps://api.example.org')).toThrow(new TypeError('baseUrl is not http(s): xhttps:'));
    expect(made('https://user@api.example.org')).toThrow(new TypeError('baseUrl holds a user name or password'));
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    await createClient({ ...settings, baseUrl: `${baseUrl}//`, fetch }).listUsers();
    expect(sent[0]!.url).toBe(`${baseUrl}/list-users`);
  });

  it('need a non-empty path parameter', async () => {
    const idv = createClient({ ...settings, fetch: fakeFetch(() => json({})).fetch });
    await expect(idv.checkInRegistry({}, { path: { registry: '' } })).rejects.toThrow('checkInRegistry needs options.path.registry');
  });

  it('the path-style call passes the path parameters, and names an unknown path', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: {} }));
    const idv = createClient({ ...settings, fetch });
    await idv.POST('/check-in-{registry}', { body: {}, params: { path: { registry: 'companies-house' } } });
    expect(sent[0]!.url).toBe(`${baseUrl}/check-in-companies-house`);
    expect(() => idv.POST('/nowhere' as never, {})).toThrow(new TypeError('Unknown path /nowhere'));
  });

  it('leave out empty multipart fields and send unknown bytes as octet-stream', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: {} }));
    await createLegacyClient({ ...settings, fetch }).getResult({ session_token: 's-1', extra: undefined, other: null } as never);
    expect([...sent[0]!.form!.keys()].sort()).toEqual(['company_key', 'session_token']);
    await createClient({ ...settings, fetch }).compareFaces({ face1: new Uint8Array([1, 2, 3]), face2: new Uint8Array([1, 2, 3]) });
    expect((sent[1]!.form!.get('face1') as File).type).toBe('application/octet-stream');
  });

  it('the browser guard needs a document, not only a window', () => {
    expect(() => assertServerSide(undefined, { window: {} })).not.toThrow();
  });
});
