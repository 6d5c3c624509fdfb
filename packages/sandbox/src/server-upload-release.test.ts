// A large file of a JSON upload is decoded ahead of its handler and kept until the request is answered;
// then it is let go, so a sandbox that takes upload after upload does not hold every file it was sent.
// Seen from outside the server: after the answer, reading the same data URI decodes it afresh (a kept
// file would be handed back as the same object).
import { describe, expect, it } from 'vitest';
import { parseDataUri, toDataUri } from './media/data-uri.js';
import { solidJpeg } from './media/jpeg.js';
import { keyA, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

describe('a file over 64 KiB in a JSON upload', () => {
  it('is not kept once the upload is answered', async () => {
    const t = await startSandbox();
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    // A comment of this test's own, so that no other file's upload is the same string.
    const content = toDataUri('image/jpeg', solidJpeg(16, 16, `upload-release ${'y'.repeat(60_000)}`));
    expect(content.length).toBeGreaterThan(64 * 1024);
    const answer = await fetch(`${t.url}/upload-file`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: keyA, sessionId: id, stepKey: 'documents', questionKey: 'proof-of-address', content }) });
    expect(answer.status).toBe(200);
    const first = parseDataUri(content);
    expect(first?.contentType).toBe('image/jpeg');
    expect(parseDataUri(content)).not.toBe(first);
  });
});
