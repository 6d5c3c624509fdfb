import { describe, expect, it } from 'vitest';
import { createFetchClient, createLegacyFetchClient, createThrottle } from './index.js';
import { baseUrl, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';
import { settle, settled, virtualClock } from './virtual-clock.test-helper.js';

type Seen = { contentType: string | null; body: Record<string, unknown> };

/** A fetch that records what each Request openapi-fetch sends carried: its content type and its body. */
function recordingFetch(answer: () => Response) {
  const seen: Seen[] = [];
  const { fetch } = fakeFetch(answer);
  const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input as Request;
    const contentType = request.headers.get('content-type');
    const body = contentType?.startsWith('multipart/form-data') ? Object.fromEntries(await request.formData()) : await request.json();
    seen.push({ contentType, body });
    return fetch(input, init);
  };
  return { fetch: recording as typeof globalThis.fetch, seen };
}

const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);

describe('the openapi-fetch clients', () => {
  it('add the company key to a JSON body, sent as JSON', async () => {
    const { fetch, seen } = recordingFetch(() => json({ result: [] }));
    const api = createFetchClient({ companyKey: fakeKey, baseUrl, rateLimit: false, fetch });
    const { data } = await api.POST('/list-users', { body: {} });
    expect(data).toEqual({ result: [] });
    await api.POST('/delete-user', { body: { userId: 'u-1' } });
    expect(seen).toEqual([
      { contentType: 'application/json', body: { companyKey: fakeKey } },
      { contentType: 'application/json', body: { userId: 'u-1', companyKey: fakeKey } },
    ]);
  });

  it('send legacy bodies as multipart with company_key', async () => {
    const { fetch, seen } = recordingFetch(() => json(true));
    const api = createLegacyFetchClient({ companyKey: fakeKey, baseUrl, rateLimit: false, fetch });
    const { data } = await api.POST('/external-api/delete/', { body: { session_token: 'session-1' } });
    expect(data).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]!.body).toEqual({ company_key: fakeKey, session_token: 'session-1' });
  });

  it('send a current body that holds a file (compare-faces) as multipart, the files as file parts', async () => {
    const { fetch, seen } = recordingFetch(() => json({ result: { similarity: 0.9, face1Statuses: [], face2Statuses: [] } }));
    const api = createFetchClient({ companyKey: fakeKey, baseUrl, rateLimit: false, fetch });
    await api.POST('/compare-faces', { body: { face1: jpeg, face2: new Blob([jpeg], { type: 'image/jpeg' }) } });
    expect(seen[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const { companyKey, face1, face2 } = seen[0]!.body as { companyKey: string; face1: File; face2: File };
    expect(companyKey).toBe(fakeKey);
    expect([face1.type, face2.type]).toEqual(['image/jpeg', 'image/jpeg']);
    expect(new Uint8Array(await face1.arrayBuffer())).toEqual(jpeg);
    expect(new Uint8Array(await face2.arrayBuffer())).toEqual(jpeg);
  });

  it('send a form with one file and a field left empty as multipart too (the service then names the missing file)', async () => {
    const { fetch, seen } = recordingFetch(() => json({ argumentError: 'wrong-parameters' }, 400));
    const api = createFetchClient({ companyKey: fakeKey, baseUrl, rateLimit: false, fetch });
    await api.POST('/compare-faces', { body: { face1: jpeg, face2: undefined as unknown as Blob } });
    expect(seen[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(Object.keys(seen[0]!.body).sort()).toEqual(['companyKey', 'face1']);
  });

  it('wait for the throttle they are given before each request', async () => {
    for (const [create, path] of [
      [createFetchClient, '/list-users'],
      [createLegacyFetchClient, '/external-api/delete/'],
    ] as const) {
      const clock = virtualClock();
      const { fetch, sent } = fakeFetch(() => json({ result: [] }));
      const api = create({ companyKey: fakeKey, baseUrl, fetch, rateLimit: { throttle: createThrottle(2, clock) } }) as unknown as {
        POST(path: string, init: { body: object }): Promise<unknown>;
      };
      const calls = [1, 2, 3].map(() => api.POST(path, { body: {} }));
      await settle();
      expect(sent).toHaveLength(2);
      await clock.advance(61_000);
      await settled(Promise.all(calls));
      expect(sent).toHaveLength(3);
    }
  });

  it('check the base URL when they are made, never repeating it', () => {
    for (const create of [createFetchClient, createLegacyFetchClient]) {
      expect(() => create({ companyKey: fakeKey, baseUrl: 'ftp://127.0.0.1' })).toThrow(new TypeError('baseUrl is not http(s): ftp:'));
      expect(() => create({ companyKey: fakeKey, baseUrl: `https://api.example.org/?key=${fakeKey}` })).toThrow(new TypeError('baseUrl holds the company key'));
      expect(() => create({ companyKey: '', baseUrl })).toThrow('companyKey is required');
    }
  });
});
