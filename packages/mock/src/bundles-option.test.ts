// startMocks's `bundles` option says which interfaces to mock, and from which files: given only the
// current interface's bundle, only that mock starts (it used to read the package's list of interfaces and
// fail on the legacy bundle it was not given).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundles, startMocks } from './index.mjs';

const folder = mkdtempSync(join(tmpdir(), 'idv-mock-bundles-'));
let mocks: Awaited<ReturnType<typeof startMocks>> | undefined;
afterAll(async () => {
  await mocks?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('startMocks({ bundles })', () => {
  it('mocks the interfaces it is given bundles for, and only those', async () => {
    const current = join(folder, 'current.json');
    writeFileSync(current, readFileSync(bundles.current, 'utf8'));
    mocks = await startMocks({ ports: { current: 0, legacy: 0 }, bundles: { current }, log: () => {}, timeoutMs: 120_000 });
    expect(Object.keys(mocks.urls)).toEqual(['current']);
    const answer = await fetch(`${mocks.urls.current}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":"ck_test_not_a_real_key_0000"}' });
    expect(answer.status).toBe(200);
    expect(Object.keys(mocks.prismPids())).toEqual(['current']);
  }, 150_000);
});
