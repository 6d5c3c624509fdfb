// The sandbox control client never puts the company key in a URL: every operation sends it in the body.
import { sandboxOperationTable } from '@idv-toolkit/types';
import { describe, expect, it } from 'vitest';
import { baseUrl, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';
import { createSandboxClient } from './sandbox.js';

describe('createSandboxClient', () => {
  it('sends the key in the JSON body of every operation, listCallbacks included, and never in the URL', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    const control = createSandboxClient({ companyKey: fakeKey, baseUrl, fetch, retry: false });
    await control.listCallbacks();
    await control.reset();
    await control.completeSession({ sessionId: 'sess_1', result: 'approved' });
    expect(sent.map((r) => r.url)).toEqual([`${baseUrl}/sandbox/callbacks`, `${baseUrl}/sandbox/reset`, `${baseUrl}/sandbox/complete-session`]);
    for (const request of sent) {
      expect(request.url).not.toContain(fakeKey);
      expect(request.init.method).toBe('POST');
      expect(request.json?.companyKey).toBe(fakeKey);
    }
    expect(Object.values(sandboxOperationTable).every((operation) => operation.method === 'POST' && operation.request === 'json')).toBe(true);
  });

  it('with throwOnError: false, response.url of a refused listCallbacks holds no key', async () => {
    const { fetch } = fakeFetch((request) => {
      const response = json({ argumentError: 'invalid-company-key' }, 400);
      Object.defineProperty(response, 'url', { value: request.url });
      return response;
    });
    const control = createSandboxClient({ companyKey: fakeKey, baseUrl, fetch, retry: false, throwOnError: false });
    const { error, response } = await control.listCallbacks();
    expect(error?.code).toBe('invalid-company-key');
    expect(response?.url).toBe(`${baseUrl}/sandbox/callbacks`);
  });
});
