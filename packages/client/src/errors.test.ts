import { describe, expect, it } from 'vitest';
import {
  createClient,
  createLegacyClient,
  IdvApiError,
  IdvAuthenticationError,
  IdvError,
  IdvNetworkError,
  IdvRateLimitError,
  IdvResponseError,
  isApiError,
} from './index.js';
import { baseUrl, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const settings = { companyKey: fakeKey, baseUrl, rateLimit: false as const, retry: false as const };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('authentication errors', () => {
  it('come from invalid-company-key and company-missing on any operation, and say the key is wrong', async () => {
    const { fetch } = fakeFetch((request) =>
      json({ argumentError: request.url.endsWith('/add-blacklist-record') ? 'invalid-company-key' : 'company-missing' }, 400),
    );
    const idv = createClient({ ...settings, fetch });
    for (const call of [() => idv.addBlacklistRecord({ query: { reason: 'r', lastName: 'Roe' } }), () => idv.searchScreeningPerson({ query: { fullName: 'J', scoreThreshold: 1 } })]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdvAuthenticationError);
      expect(error).toBeInstanceOf(IdvApiError);
      expect((error as Error).message).toMatch(/: (invalid-company-key|company-missing) \(the company key is wrong\)/);
    }
  });

  it('come from invalid-access or not-found on an operation that sends nothing but the key', async () => {
    const { fetch } = fakeFetch((request) => json({ argumentError: request.url.endsWith('/list-users') ? 'invalid-access' : 'not-found' }, 400));
    const idv = createClient({ ...settings, fetch });
    await expect(idv.listUsers()).rejects.toBeInstanceOf(IdvAuthenticationError);
    await expect(idv.listGroups()).rejects.toBeInstanceOf(IdvAuthenticationError);
  });

  it('are not claimed where the code has a meaning of its own, but the message says the key may be wrong', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'session-not-found' }, 400));
    const idv = createClient({ ...settings, fetch });
    const error = await idv.getResult({ sessionId: 's-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvApiError);
    expect(error).not.toBeInstanceOf(IdvAuthenticationError);
    expect((error as Error).message).toMatch(/session-not-found \(or the company key is wrong/);
    const legacy = createLegacyClient({ ...settings, baseUrl: 'http://127.0.0.1:4011', fetch });
    await expect(legacy.getResult({ session_token: 's-1' })).rejects.toThrow(/or the company key is wrong/);
  });

  it('are not claimed for other codes', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'user-not-found' }, 400));
    const error = await createClient({ ...settings, fetch }).deleteUser({ userId: 'u' }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(IdvAuthenticationError);
    expect((error as Error).message).not.toMatch(/company key/);
  });
});

describe('every error', () => {
  it('carries the operation, status, request id, attempts and the answer with its headers', async () => {
    const { fetch, sent } = fakeFetch(() => json({ argumentError: 'user-not-found' }, 400));
    const error = (await createClient({ ...settings, fetch }).deleteUser({ userId: 'u' }).catch((e: unknown) => e)) as IdvApiError;
    expect(error).toBeInstanceOf(IdvError);
    expect(error).toMatchObject({ operation: 'deleteUser', status: 400, attempts: 1, code: 'user-not-found' });
    expect(error.requestId).toMatch(uuid);
    expect(error.requestId).toBe(new Headers(sent[0]!.init.headers).get('x-request-id'));
    expect(error.response.headers.get('content-type')).toBe('application/json');
    expect(error.message).toContain(error.requestId);
  });

  it('of a network failure carries the same, without status or answer', async () => {
    const { fetch } = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const error = (await createClient({ ...settings, fetch }).deleteUser({ userId: 'u' }).catch((e: unknown) => e)) as IdvNetworkError;
    expect(error).toBeInstanceOf(IdvError);
    expect(error).toMatchObject({ operation: 'deleteUser', attempts: 1, status: undefined, response: undefined, reason: 'network' });
    expect(error.code).toBeUndefined();
    expect(error.requestId).toMatch(uuid);
    expect(error.cause).toBeInstanceOf(TypeError);
  });
});

describe('an answer that does not parse', () => {
  it('is an IdvResponseError, never a bare SyntaxError (a 200 with an HTML page)', async () => {
    const { fetch } = fakeFetch(() => new Response('<html><body>Welcome to the captive portal</body></html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    const error = await createClient({ ...settings, fetch }).listUsers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvResponseError);
    expect(error).toMatchObject({ operation: 'listUsers', status: 200, attempts: 1, bodyStart: '<html><body>Welcome to the captive portal</body></html>' });
    expect((error as Error).message).toMatch(/^listUsers answered HTTP 200 with a body that is not JSON \(request id/);
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it('with an error status keeps its text as the body of an IdvApiError', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await createClient({ ...settings, fetch }).listUsers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvApiError);
    expect(error).toMatchObject({ status: 502, code: undefined, body: '<html>Bad gateway</html>' });
  });
});

describe('the 529 answer', () => {
  it('says the IP is blocked without assuming for how long, and keeps Retry-After when there is one', async () => {
    const { fetch } = fakeFetch((_r, i) => new Response('Too many requests', { status: 529, headers: i === 0 ? {} : { 'retry-after': '1800' } }));
    const idv = createClient({ ...settings, fetch });
    const first = (await idv.listUsers().catch((e: unknown) => e)) as IdvRateLimitError;
    expect(first).toBeInstanceOf(IdvRateLimitError);
    expect(first.message).not.toMatch(/hour/);
    expect(first.message).toMatch(/is refused until the block ends \(request id/);
    expect(first.retryAfterMs).toBeUndefined();
    const second = (await idv.listUsers().catch((e: unknown) => e)) as IdvRateLimitError;
    expect(second.retryAfterMs).toBe(1_800_000);
  });
});

describe('isApiError', () => {
  it('is true for an API error of the named operation only', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'already-exists' }, 400));
    const error = await createClient({ ...settings, fetch }).addBlacklistRecord({ query: { reason: 'r', lastName: 'R' } }).catch((e: unknown) => e);
    expect(isApiError(error, 'addBlacklistRecord')).toBe(true);
    expect(isApiError(error)).toBe(true);
    expect(isApiError(error, 'deleteUser')).toBe(false);
    expect(isApiError(new Error('x'))).toBe(false);
  });
});
