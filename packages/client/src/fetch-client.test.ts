import { describe, expect, it } from 'vitest';
import { createFetchClient, createLegacyFetchClient } from './index.js';
import { baseUrl, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

// openapi-fetch sends a Request object; read what it carried.
async function bodyOf(input: RequestInfo | URL) {
  const request = input as Request;
  return request.headers.get('content-type')?.startsWith('multipart/') ? Object.fromEntries(await request.formData()) : await request.json();
}

describe('the openapi-fetch clients', () => {
  it('add the company key to a JSON body', async () => {
    const seen: unknown[] = [];
    const { fetch } = fakeFetch(() => json({ result: [] }));
    const api = createFetchClient({ companyKey: fakeKey, baseUrl, rateLimit: false, fetch: async (input, init) => (seen.push(await bodyOf(input)), fetch(input, init)) });
    const { data } = await api.POST('/list-users', { body: {} });
    expect(data).toEqual({ result: [] });
    expect(seen).toEqual([{ companyKey: fakeKey }]);
  });

  it('send legacy bodies as multipart with company_key', async () => {
    const seen: unknown[] = [];
    const { fetch } = fakeFetch(() => json(true));
    const api = createLegacyFetchClient({ companyKey: fakeKey, baseUrl, fetch: async (input, init) => (seen.push(await bodyOf(input)), fetch(input, init)) });
    const { data } = await api.POST('/external-api/delete/', { body: { session_token: 'session-1' } });
    expect(data).toBe(true);
    expect(seen).toEqual([{ company_key: fakeKey, session_token: 'session-1' }]);
  });

  it('check the base URL when they are made, never repeating it', () => {
    for (const create of [createFetchClient, createLegacyFetchClient]) {
      expect(() => create({ companyKey: fakeKey, baseUrl: 'ftp://127.0.0.1' })).toThrow(new TypeError('baseUrl is not http(s): ftp:'));
      expect(() => create({ companyKey: fakeKey, baseUrl: `https://api.example.org/?key=${fakeKey}` })).toThrow(new TypeError('baseUrl holds the company key'));
      expect(() => create({ companyKey: '', baseUrl })).toThrow('companyKey is required');
    }
  });
});
