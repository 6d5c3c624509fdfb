// With `warm` (npm run dev), a reload has the Prism serving read the new bundle in place, beside the server
// that answers meanwhile (no process started: most of a Prism's start is loading its modules), with no
// request refused; a warm Prism (modules loaded) is kept to take over from a Prism that exits.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundles, startMocks } from './index.mjs';

const folder = mkdtempSync(join(tmpdir(), 'idv-mock-warm-'));
// The current interface alone: these tests reload only its bundle, and two Prisms fewer (the legacy one
// serving and its warm one) are two Prism starts fewer in npm test.
const copies = { current: join(folder, 'current.json') };
const original = readFileSync(bundles.current, 'utf8');
let mocks: Awaited<ReturnType<typeof startMocks>>;

beforeAll(async () => {
  writeFileSync(copies.current, original);
  // Prism's start takes tens of seconds on a loaded machine; the test is about the reload.
  mocks = await startMocks({ ports: { current: 0, legacy: 0 }, bundles: copies, log: () => {}, warm: true, timeoutMs: 120_000 });
}, 150_000);
afterAll(async () => {
  await mocks?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const listGroups = () =>
  fetch(`${mocks.urls.current}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":"ck_test_not_a_real_key_0000"}' });

// The `bundles` option (this was bundles-option.test.ts, which started a Prism of its own for it): given
// only the current interface's bundle, only that mock starts (it used to read the package's list of
// interfaces and fail on the legacy bundle it was not given).
describe('startMocks({ bundles })', () => {
  it('mocks the interfaces it is given bundles for, and only those', async () => {
    expect(Object.keys(mocks.urls)).toEqual(['current']);
    expect((await listGroups()).status).toBe(200);
    expect(Object.keys(mocks.prismPids())).toEqual(['current']);
  });
});

describe('a reload with warm: true', () => {
  it('is read in place by the Prism serving, every request meanwhile answered, the warm Prism kept for an exit', async () => {
    await mocks.warmReady();
    const servingPid = mocks.prismPids().current;
    const warmPid = mocks.warmPids().current;
    expect(warmPid).toBeGreaterThan(0);
    for (const round of [1, 2]) {
      writeFileSync(copies.current, original.replaceAll('grp-compliance-01', `grp-warm-${round}`));
      let reloading = true;
      const statuses: (number | string)[] = [];
      const asking = (async () => {
        while (reloading) {
          statuses.push(await listGroups().then((r) => r.status, (error) => String(error.cause?.code ?? error.message)));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      await mocks.reload().finally(() => (reloading = false));
      await asking;
      expect(statuses.filter((status) => status !== 200), `round ${round}`).toEqual([]);
      // The next request, on a connection the old server may still hold, has the new document.
      expect(JSON.stringify(await (await listGroups()).json()), `round ${round}`).toContain(`grp-warm-${round}`);
      expect([mocks.prismPids().current, mocks.warmPids().current], `round ${round}`).toEqual([servingPid, warmPid]);
    }
  }, 240_000);

  it('serves bundles prepared ahead (read while held from the port) only once reloaded, and drops cancelled ones', async () => {
    const text = (round: number) => original.replaceAll('grp-compliance-01', `grp-prepared-${round}`);
    const prepared = await mocks.prepare({ current: text(1) });
    // Held: the old document still answers until the reload, even once the new one is read.
    await (prepared as unknown as { prisms: { current: { loaded: Promise<number> } } }).prisms.current.loaded;
    expect(JSON.stringify(await (await listGroups()).json())).not.toContain('grp-prepared-1');
    writeFileSync(copies.current, text(1));
    await mocks.reload({ prepared });
    expect(JSON.stringify(await (await listGroups()).json())).toContain('grp-prepared-1');

    // Prepared for a text that is not what gets written: not used, and the reload still serves the bundle.
    const stale = await mocks.prepare({ current: text(2) });
    writeFileSync(copies.current, text(3));
    await mocks.reload({ prepared: stale });
    expect(JSON.stringify(await (await listGroups()).json())).toContain('grp-prepared-3');

    const cancelled = await mocks.prepare({ current: text(4) });
    cancelled.cancel();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(JSON.stringify(await (await listGroups()).json())).toContain('grp-prepared-3');
  }, 240_000);

  it('keeps the document it serves when the new one cannot be read, and says why', async () => {
    const before = JSON.stringify(await (await listGroups()).json());
    writeFileSync(copies.current, JSON.stringify({ openapi: '3.1.0', info: { title: 'No operations', version: '1' }, paths: {} }));
    await expect(mocks.reload()).rejects.toThrow(/No operations found/);
    expect(JSON.stringify(await (await listGroups()).json())).toBe(before);
    writeFileSync(copies.current, original);
    await mocks.reload();
  }, 240_000);

  it('has the warm Prism take over, with the document served, when the Prism serving exits', async () => {
    writeFileSync(copies.current, original.replaceAll('grp-compliance-01', 'grp-after-exit'));
    await mocks.reload();
    const [servingPid, warmPid] = [mocks.prismPids().current!, mocks.warmPids().current!];
    process.kill(servingPid, 'SIGKILL');
    const began = Date.now();
    while (mocks.prismPids().current === servingPid && Date.now() - began < 120_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mocks.prismPids().current).toBe(warmPid);
    expect(JSON.stringify(await (await listGroups()).json())).toContain('grp-after-exit');
  }, 240_000);
});
