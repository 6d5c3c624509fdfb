// Uploads through the server: a form's files count as present for the operation's schema (compare-faces,
// a legacy card); a JSON upload's other fields take no more than a body without files; and a JSON file
// field is the same file whether it is short or long enough to be decoded ahead of its handler (over
// 64 KiB of text).
import { describe, expect, it } from 'vitest';
import { toDataUri } from './media/data-uri.js';
import { solidJpeg } from './media/jpeg.js';
import { keyA, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

const form = (fields: Record<string, string | Uint8Array>) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') body.append(name, value);
    else body.append(name, new Blob([new Uint8Array(value)], { type: 'image/jpeg' }), `${name}.jpg`);
  }
  return body;
};

describe('a form with files', () => {
  it('to compare-faces is checked with its files present, and answered', async () => {
    const t = await startSandbox();
    const face = solidJpeg(200, 240, 'face');
    const answer = await fetch(`${t.url}/compare-faces`, { method: 'POST', body: form({ companyKey: keyA, face1: face, face2: face }) });
    expect(answer.status).toBe(200);
    expect((await answer.json()).result.similarity).toBe(1);
    const missing = await fetch(`${t.url}/compare-faces`, { method: 'POST', body: form({ companyKey: keyA, face1: face }) });
    expect([missing.status, await missing.json()]).toEqual([400, { argumentError: 'wrong-parameters' }]);
  });

  it('to a legacy card extraction is answered', async () => {
    const t = await startSandbox();
    const answer = await fetch(`${t.url}/external-api/card/front/`, { method: 'POST', body: form({ company_key: keyA, image: solidJpeg(320, 200, 'card') }) });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
  });
});

describe('a JSON file field', () => {
  it('leaves the other fields no more room than a body without files: 1 MiB', async () => {
    const t = await startSandbox();
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    // 150 fields of 9,000 characters: each within the text limit, 1.35 MB together.
    const padding = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`note${i}`, 'x'.repeat(9_000)]));
    const body = { companyKey: keyA, sessionId: id, stepKey: 'documents', questionKey: 'proof-of-address', content: toDataUri('image/jpeg', solidJpeg(16, 16)) };
    const small = await fetch(`${t.url}/upload-file`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, note: 'x'.repeat(9_000) }) });
    expect(small.status).toBe(200);
    const big = await fetch(`${t.url}/upload-file`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, ...padding }) });
    expect([big.status, await big.json()]).toEqual([400, { argumentError: 'wrong-parameters' }]);
  });

  it('is stored as sent, short or over 64 KiB', async () => {
    const t = await startSandbox();
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    const where = { sessionId: id, stepKey: 'documents', questionKey: 'proof-of-address' };
    const short = solidJpeg(16, 16, 'short');
    const long = solidJpeg(16, 16, 'x'.repeat(60_000));
    expect(toDataUri('image/jpeg', long).length).toBeGreaterThan(64 * 1024);
    for (const bytes of [short, long]) {
      const answer = await fetch(`${t.url}/upload-file`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: keyA, ...where, content: toDataUri('image/jpeg', bytes) }) });
      expect(answer.status).toBe(200);
      const filename = (await answer.json()).result as string;
      const file = await t.a.getFile({ ...where, filename });
      expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });
});
