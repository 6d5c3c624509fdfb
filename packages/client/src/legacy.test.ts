import { describe, expect, it } from 'vitest';
import { createLegacyClient, IdvApiError } from './index.js';
import { fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const baseUrl = 'http://127.0.0.1:4011';
const options = { companyKey: fakeKey, baseUrl, rateLimit: false as const, retry: false as const };

describe('the legacy client', () => {
  it('sends multipart form data with company_key and snake_case fields', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: 'approved' }));
    const legacy = createLegacyClient({ ...options, fetch });
    const result = await legacy.getResult({ session_token: 'session-1' });
    expect(result).toEqual({ result: 'approved' });
    expect(sent[0]!.url).toBe(`${baseUrl}/external-api/result/`);
    expect(Object.fromEntries(sent[0]!.form!)).toEqual({ company_key: fakeKey, session_token: 'session-1' });
  });

  it('encodes steps, flags and general as JSON text and resolves begin/ to the bare session ID', async () => {
    const { fetch, sent } = fakeFetch(() => json('session-2'));
    const legacy = createLegacyClient({ ...options, fetch });
    const id = await legacy.begin({ config_id: 'config-1', general: { language: 'en' }, steps: [{ type: 'liveness', key: 'liveness' }] });
    expect(id).toBe('session-2');
    const form = sent[0]!.form!;
    expect(JSON.parse(form.get('general') as string)).toEqual({ language: 'en' });
    expect(JSON.parse(form.get('steps') as string)).toEqual([{ type: 'liveness', key: 'liveness' }]);
  });

  it('uploads an image as a JPEG file part', async () => {
    const { fetch, sent } = fakeFetch(() => json({ requestId: 'r1' }));
    const legacy = createLegacyClient({ ...options, fetch });
    await legacy.extractPassport({ image: new Uint8Array([0xff, 0xd8, 0xff, 0xdb]) });
    const image = sent[0]!.form!.get('image') as File;
    expect(image.type).toBe('image/jpeg');
    expect(image.size).toBe(4);
  });

  it('resolves media endpoints to a Blob with the bytes and content type', async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
    const { fetch } = fakeFetch(() => new Response(jpeg, { headers: { 'content-type': 'image/jpeg' } }));
    const legacy = createLegacyClient({ ...options, fetch });
    const image = await legacy.getCardFront({ session_token: 'session-1' });
    expect(image).toBeInstanceOf(Blob);
    expect(image.type).toBe('image/jpeg');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(jpeg);
  });

  it('resolves delete/ to true and turns session-not-found into a typed error', async () => {
    const { fetch } = fakeFetch((_r, i) => (i === 0 ? json(true) : json({ argumentError: 'session-not-found' }, 400)));
    const legacy = createLegacyClient({ ...options, fetch });
    await expect(legacy.delete({ session_token: 'session-1' })).resolves.toBe(true);
    await expect(legacy.delete({ session_token: 'session-1' })).rejects.toEqual(expect.any(IdvApiError));
  });
});
