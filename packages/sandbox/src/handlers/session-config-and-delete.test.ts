// get-session-config's defaults, legacy begin's configuration, and what deleting a session takes with it
// (README "Sessions": sessionLifetime defaults to 1440; deleting a session deletes its children and
// attachments).
import { afterEach, describe, expect, it } from 'vitest';
import { demoSessionConfigs } from '../companies.js';
import { toDataUri } from '../media/data-uri.js';
import { solidPng } from '../media/png.js';
import { codeOf, keyA, startTestSandbox } from '../sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
afterEach(() => t?.close());

const steps = demoSessionConfigs[0]!.steps;

describe('getSessionConfig', () => {
  it('gives the configuration asked for, with language en and a lifetime of 1440 minutes when it sets none', async () => {
    t = await startTestSandbox({
      config: {
        companies: [
          {
            companyKey: keyA,
            sessionConfigs: [
              { id: 'cfg-bare', name: 'Bare', steps },
              { id: 'cfg-set', name: 'Set', general: { language: 'ka', sessionLifetime: '60', returnUrl: 'https://shop.example.com/done' }, steps },
            ],
          },
        ],
      },
    });
    const bare = await t.a.getSessionConfig({ sessionConfigId: 'cfg-bare' });
    expect(bare.result).toEqual({ id: 'cfg-bare', name: 'Bare', general: { language: 'en', sessionLifetime: 1440 }, steps });
    const set = await t.a.getSessionConfig({ sessionConfigId: 'cfg-set' });
    expect(set.result).toEqual({ id: 'cfg-set', name: 'Set', general: { language: 'ka', sessionLifetime: 60, returnUrl: 'https://shop.example.com/done' }, steps });
    expect(await codeOf(t.a.getSessionConfig({ sessionConfigId: 'cfg-none' }))).toBe('wrong-parameters');
  });
});

describe('legacy begin', () => {
  it('makes a session of the configuration named by config_id', async () => {
    t = await startTestSandbox();
    const kyb = await t.legacyA.begin({ config_id: 'cfg-kyb-standard-01' });
    const { result } = await t.a.getResult({ sessionId: kyb });
    expect(result.stepsResults?.map((step) => step.type)).toEqual(['company', 'beneficiaries', 'kyb-review']);
  });
});

describe('deleting a session', () => {
  it('deletes its attachments, and no other session\'s', async () => {
    t = await startTestSandbox();
    const where = { stepKey: 'documents', questionKey: 'proof-of-address' };
    const upload = (sessionId: string) => t.a.uploadFile({ sessionId, ...where, content: toDataUri('image/png', solidPng(2, 2, sessionId)) });
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    const { id: kept } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    await upload(id);
    await upload(kept);
    expect(await t.sandbox.state.files.list(keyA)).toHaveLength(2);
    await t.a.deleteSession({ sessionId: id });
    expect((await t.sandbox.state.files.list(keyA)).map((file) => file.sessionId)).toEqual([kept]);
    await t.legacyA.delete({ session_token: kept });
    expect(await t.sandbox.state.files.list(keyA)).toEqual([]);
  });
});
