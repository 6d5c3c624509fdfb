// A text field of an upload written all in JSON escapes (six bytes a character): within the text limit
// it is taken, however many bytes it spans, also when the limit is raised above the 64 KiB at which the
// upload reader starts to set long strings aside as files; one character more is refused.
import { describe, expect, it } from 'vitest';
import { toDataUri } from './media/data-uri.js';
import { solidJpeg } from './media/jpeg.js';
import { keyA, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

describe('an escaped text field of an upload', () => {
  it('within a text limit of 20,000 characters (120,000 bytes of escapes) is taken; one character more is refused', async () => {
    const maxTextLength = 20_000;
    const t = await startSandbox({ limits: { maxTextLength } });
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    const upload = (characters: number) => {
      const body = JSON.stringify({ companyKey: keyA, sessionId: id, stepKey: 'documents', questionKey: 'proof-of-address', content: toDataUri('image/jpeg', solidJpeg(16, 16)), note: 'NOTE' });
      return fetch(`${t.url}/upload-file`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body.replace('"NOTE"', `"${'\\u0078'.repeat(characters)}"`) });
    };
    const within = await upload(maxTextLength);
    expect(within.status).toBe(200);
    const over = await upload(maxTextLength + 1);
    expect([over.status, await over.json()]).toEqual([400, { argumentError: 'wrong-parameters' }]);
  });
});
