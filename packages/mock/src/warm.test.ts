// With `warm` (npm run dev), a reload hands the new bundle to a Prism whose modules are already loaded,
// instead of starting one (most of a Prism's start is loading its modules), with no request refused.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundles, startMocks } from './index.mjs';

const folder = mkdtempSync(join(tmpdir(), 'idv-mock-warm-'));
const copies = { current: join(folder, 'current.json'), legacy: join(folder, 'legacy.json') };
const original = readFileSync(bundles.current, 'utf8');
let mocks: Awaited<ReturnType<typeof startMocks>>;

beforeAll(async () => {
  writeFileSync(copies.current, original);
  writeFileSync(copies.legacy, readFileSync(bundles.legacy, 'utf8'));
  // Prism's start takes tens of seconds on a loaded machine; the test is about the reload.
  mocks = await startMocks({ ports: { current: 0, legacy: 0 }, bundles: copies, log: () => {}, warm: true, timeoutMs: 120_000 });
}, 150_000);
afterAll(async () => {
  await mocks?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const listGroups = () =>
  fetch(`${mocks.urls.current}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":"ck_test_not_a_real_key_0000"}' });

describe('a reload with warm Prisms', () => {
  it('is served by the warm Prism, with the new bundle, and every request meanwhile is answered; a new warm one follows', async () => {
    for (const round of [1, 2]) {
      const warmPid = mocks.warmPids().current;
      expect(warmPid, `round ${round}`).toBeGreaterThan(0);
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
      expect(mocks.prismPids().current, `round ${round}`).toBe(warmPid);
      expect(JSON.stringify(await (await listGroups()).json())).toContain(`grp-warm-${round}`);
      expect(mocks.warmPids().current).not.toBe(warmPid);
    }
  }, 240_000);

  it('serves bundles prepared ahead (loaded while held from the port) with the Prism that loaded them, and drops cancelled ones', async () => {
    const text = (round: number) => original.replaceAll('grp-compliance-01', `grp-prepared-${round}`);
    const warmPid = mocks.warmPids().current;
    const prepared = await mocks.prepare({ current: text(1) });
    // Held: the old Prism still answers until the reload.
    expect(JSON.stringify(await (await listGroups()).json())).not.toContain('grp-prepared-1');
    writeFileSync(copies.current, text(1));
    await mocks.reload({ prepared });
    expect(mocks.prismPids().current).toBe(warmPid);
    expect(JSON.stringify(await (await listGroups()).json())).toContain('grp-prepared-1');

    // Prepared for a text that is not what gets written: not used, and the reload still serves the bundle.
    const otherWarm = mocks.warmPids().current;
    const stale = await mocks.prepare({ current: text(2) });
    writeFileSync(copies.current, text(3));
    await mocks.reload({ prepared: stale });
    expect(mocks.prismPids().current).not.toBe(otherWarm);
    expect(JSON.stringify(await (await listGroups()).json())).toContain('grp-prepared-3');

    const cancelled = await mocks.prepare({ current: text(4) });
    cancelled.cancel();
    expect(JSON.stringify(await (await listGroups()).json())).toContain('grp-prepared-3');
  }, 240_000);
});
