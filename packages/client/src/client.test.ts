import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createClient, IdvApiError, IdvNetworkError, IdvRateLimitError } from './index.js';
import { baseUrl, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const options = { companyKey: fakeKey, baseUrl, rateLimit: false as const, retry: false as const };

describe('the current client', () => {
  it('posts JSON with the company key added to the body, to the operation path', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: 'record-1' }));
    const idv = createClient({ ...options, fetch });
    const data = await idv.addBlacklistRecord({ query: { reason: 'Forged document', documentNumber: 'X1' } });
    expect(data).toEqual({ result: 'record-1' });
    expect(sent[0]!.url).toBe(`${baseUrl}/add-blacklist-record`);
    expect(sent[0]!.init.method).toBe('POST');
    expect(new Headers(sent[0]!.init.headers).get('content-type')).toBe('application/json');
    expect(sent[0]!.json).toEqual({ companyKey: fakeKey, query: { reason: 'Forged document', documentNumber: 'X1' } });
  });

  it('lets the configured key win over one passed in the body', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const idv = createClient({ ...options, fetch });
    await idv.listGroups({ companyKey: 'ck_test_other' } as never);
    expect(sent[0]!.json).toEqual({ companyKey: fakeKey });
  });

  it('sends compare-faces as multipart with the key and the two files', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: { similarity: 0.9, face1Statuses: [], face2Statuses: [] } }));
    const idv = createClient({ ...options, fetch });
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    await idv.compareFaces({ face1: jpeg, face2: new Blob([jpeg], { type: 'image/jpeg' }) });
    const form = sent[0]!.form!;
    expect(form.get('companyKey')).toBe(fakeKey);
    const face1 = form.get('face1') as File;
    expect(face1.type).toBe('image/jpeg');
    expect(new Uint8Array(await face1.arrayBuffer())).toEqual(jpeg);
    expect((form.get('face2') as File).type).toBe('image/jpeg');
    expect(new Headers(sent[0]!.init.headers).get('content-type')).toBeNull();
  });

  it('fills the path parameter of the registry check', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: {} }));
    const idv = createClient({ ...options, fetch });
    await idv.checkInRegistry({}, { path: { registry: 'companies-house' } });
    expect(sent[0]!.url).toBe(`${baseUrl}/check-in-companies-house`);
    await expect(idv.checkInRegistry({}, { path: {} as never })).rejects.toThrow(/needs options.path.registry/);
  });

  it('offers the path-style call over the same core', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: true }));
    const idv = createClient({ ...options, fetch });
    const { data, error, response } = await idv.POST('/remove-blacklist-record', { body: { id: 'record-1' } });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: true });
    expect(response?.status).toBe(200);
    expect(sent[0]!.json).toEqual({ companyKey: fakeKey, id: 'record-1' });
  });
});

describe('errors', () => {
  it('turn a 400 into an IdvApiError with the documented code, status and operation', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'already-exists' }, 400));
    const idv = createClient({ ...options, fetch });
    const error = await idv.addBlacklistRecord({ query: { reason: 'r', firstName: 'Jane' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvApiError);
    expect(error).toMatchObject({ code: 'already-exists', status: 400, operation: 'addBlacklistRecord', body: { argumentError: 'already-exists' } });
    expect((error as Error).message).toMatch(/^addBlacklistRecord failed with HTTP 400: already-exists \(request id [0-9a-f-]{36}\)$/);
  });

  it('read the `error` key of the registry checks and the internalError body of create-user', async () => {
    const { fetch } = fakeFetch((request) =>
      request.url.endsWith('/get-trusted-database-record')
        ? json({ error: 'no-trusted-database-sources' }, 400)
        : json({ internalError: 'Illegal arguments' }, 400),
    );
    const idv = createClient({ ...options, fetch, throwOnError: false });
    const trusted = await idv.getTrustedDatabaseRecord({ privateNumber: '1', birthdayTime: '1990-01-01T00:00:00Z', sessionId: 's', issuingState: 'GE' });
    expect(trusted.error).toMatchObject({ code: 'no-trusted-database-sources', status: 400 });
    const user = await idv.createUser({ email: 'a@example.org', password: 12345678 as never });
    expect(user.error).toMatchObject({ code: 'internal-error', body: { internalError: 'Illegal arguments' } });
  });

  it('turn 529 into an IdvRateLimitError and never retry it, even where retries are allowed', async () => {
    const { fetch, sent } = fakeFetch(() => new Response('Too many requests', { status: 529 }));
    const idv = createClient({ companyKey: fakeKey, baseUrl, fetch, rateLimit: false, maxRetries: 3 });
    const error = await idv.listBlacklistRecords().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvRateLimitError);
    expect(error).toMatchObject({ status: 529, operation: 'listBlacklistRecords', body: 'Too many requests' });
    expect(sent).toHaveLength(1);
  });

  it('turn a failed network into an IdvNetworkError', async () => {
    const { fetch } = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const idv = createClient({ ...options, fetch });
    const error = await idv.deleteUser({ userId: 'u1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvNetworkError);
    expect(error).toMatchObject({ operation: 'deleteUser', attempts: 1 });
  });

  it('come back as { error } instead of a rejection when throwOnError is false', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'user-not-found' }, 400));
    const idv = createClient({ ...options, fetch, throwOnError: false });
    const { data, error } = await idv.deleteUser({ userId: 'u1' });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ code: 'user-not-found' });
  });

});

describe('the company key', () => {
  it('never shows in errors, their JSON, or the client object', async () => {
    const { fetch } = fakeFetch((_r, i) => (i === 0 ? json({ argumentError: 'invalid-company-key' }, 400) : Promise.reject(new TypeError('fetch failed'))));
    const idv = createClient({ ...options, fetch });
    const apiError = await idv.listUsers().catch((e: unknown) => e);
    const networkError = await idv.listUsers().catch((e: unknown) => e);
    for (const shown of [apiError, networkError, idv]) {
      expect(inspect(shown, { depth: 10, showHidden: true })).not.toContain(fakeKey);
      expect(JSON.stringify(shown) ?? '').not.toContain(fakeKey);
      expect(String(shown)).not.toContain(fakeKey);
    }
  });

  it('is required, and so is an http(s) base URL', () => {
    expect(() => createClient({ companyKey: '', baseUrl })).toThrow(/companyKey is required/);
    expect(() => createClient({ companyKey: fakeKey, baseUrl: 'localhost:4010' })).toThrow('baseUrl is not http(s): localhost:');
  });
});
