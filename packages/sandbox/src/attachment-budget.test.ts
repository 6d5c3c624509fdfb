// What an attached file costs of its company's byte budget (README, Limits: `maxBytesPerCompany`): its
// bytes plus 256 for what is stored beside them, so a company of 10,000 bytes with one session (of 251 to
// 575 bytes) holds 29 files of 69 bytes (29 x 325 = 9,425), not 30; the next upload is refused and nothing
// is stored, and deleting a file makes room again.
import { describe, expect, it } from 'vitest';
import { toDataUri } from './media/data-uri.js';
import { codeOf, keyA, sandboxPerTest } from './sandbox.test-helper.js';
import { tinyPng } from './media/tiny-samples.test-helper.js';

const startSandbox = sandboxPerTest();

const where = { stepKey: 'documents', questionKey: 'proof-of-address' };

describe('the byte budget of a company, with files', () => {
  it('counts each file as its bytes plus 256', async () => {
    const t = await startSandbox({ limits: { maxBytesPerCompany: 10_000 } });
    expect(tinyPng().length).toBe(69);
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    const content = toDataUri('image/png', tinyPng());
    const ids: string[] = [];
    for (let i = 0; i < 29; i++) ids.push((await t.a.uploadFile({ sessionId: id, ...where, content })).result);
    expect(await codeOf(t.a.uploadFile({ sessionId: id, ...where, content }))).toBe('wrong-parameters');
    expect(await t.sandbox.state.files.list(keyA)).toHaveLength(29);
    await t.a.deleteFile({ sessionId: id, ...where, filename: ids[0]! });
    await expect(t.a.uploadFile({ sessionId: id, ...where, content })).resolves.toHaveProperty('result');
    expect(await codeOf(t.a.uploadFile({ sessionId: id, ...where, content }))).toBe('wrong-parameters');
  });
});
