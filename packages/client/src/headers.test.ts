import { describe, expect, it } from 'vitest';
import { createClient, createLegacyClient } from './index.js';
import { baseUrl, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const settings = { companyKey: fakeKey, baseUrl, rateLimit: false as const, retry: false as const };
const headersOf = (init: RequestInit) => Object.fromEntries(new Headers(init.headers));

describe('request headers', () => {
  it("carry the client's own headers on every call, and a call's own on that call only", async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const idv = createClient({ ...settings, fetch, headers: { 'x-tenant': 'north' } });
    await idv.listUsers(undefined, { headers: { prefer: 'code=200, example=empty' } });
    await idv.listUsers();
    const [first, second] = sent.map((request) => headersOf(request.init));
    expect(first).toMatchObject({ 'x-tenant': 'north', prefer: 'code=200, example=empty', 'content-type': 'application/json' });
    expect(second).toMatchObject({ 'x-tenant': 'north', 'content-type': 'application/json' });
    expect(second).not.toHaveProperty('prefer');
  });

  it("never reuse one call's headers or request id for the next", async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const idv = createClient({ ...settings, fetch, onRequest: (info) => void (info.headers['x-hooked'] = info.requestId) });
    await idv.listUsers(undefined, { requestId: 'first', headers: { prefer: 'once' } });
    await idv.listUsers(undefined, { requestId: 'second' });
    const [first, second] = sent.map((request) => headersOf(request.init));
    expect(first).toMatchObject({ 'x-request-id': 'first', 'x-hooked': 'first', prefer: 'once' });
    expect(second).toMatchObject({ 'x-request-id': 'second', 'x-hooked': 'second' });
    expect(second).not.toHaveProperty('prefer');
  });

  it("take the request id from the call, never from the client's headers", async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const idv = createClient({ ...settings, fetch, headers: { 'x-request-id': 'stale' } });
    const { requestId } = await idv.listUsers.withResponse();
    expect(requestId).not.toBe('stale');
    expect(headersOf(sent[0]!.init)['x-request-id']).toBe(requestId);
  });

  it('let the client override the content type and User-Agent of JSON requests', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    await createClient({ ...settings, fetch, headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'acme-backend/2' } }).listUsers();
    expect(headersOf(sent[0]!.init)).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'user-agent': 'acme-backend/2' });
  });

  it('leave the content type of a multipart request to fetch, which adds the boundary', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: {} }));
    await createLegacyClient({ ...settings, fetch, headers: { 'x-tenant': 'north' } }).getResult({ session_token: 's-1' });
    const headers = headersOf(sent[0]!.init);
    expect(headers).toMatchObject({ 'x-tenant': 'north' });
    expect(headers).not.toHaveProperty('content-type');
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the JSON body', () => {
  it('is the parameters with the key as the last member, whatever the parameters', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const idv = createClient({ ...settings, fetch });
    await idv.listUsers();
    await idv.listUsers({});
    await idv.deleteUser({ userId: 'u-1' });
    await idv.addBlacklistRecord({ query: { reason: 'r', lastName: 'Roe' } });
    expect(sent.map((request) => request.init.body)).toEqual([
      `{"companyKey":"${fakeKey}"}`,
      `{"companyKey":"${fakeKey}"}`,
      `{"userId":"u-1","companyKey":"${fakeKey}"}`,
      `{"query":{"reason":"r","lastName":"Roe"},"companyKey":"${fakeKey}"}`,
    ]);
  });

  it('holds the configured key once, even when the caller put another one among the parameters', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    await createClient({ ...settings, fetch }).deleteUser({ userId: 'u-1', companyKey: 'ck_test_other' } as never);
    expect(sent[0]!.init.body).toBe(`{"userId":"u-1","companyKey":"${fakeKey}"}`);
  });

  it('escapes a key that needs it', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    await createClient({ ...settings, companyKey: 'ck_test_"quoted"\\', fetch }).listUsers();
    expect(JSON.parse(sent[0]!.init.body as string)).toEqual({ companyKey: 'ck_test_"quoted"\\' });
  });
});
