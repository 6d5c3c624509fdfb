// reloadRoutes() after `npm run dev` rewrote the bundles: the sandbox's routes are read again and its
// requests are answered by them. The bundle is "rewritten" by moving its modification time a second
// (what tells one version of the bundles from the next, spec.ts), and put back after the test.
import { statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { keyA, startTestSandbox } from './sandbox.test-helper.js';

const bundle = createRequire(import.meta.url).resolve('@idv-toolkit/openapi/current.json');
let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
let restore: (() => void) | undefined;
afterEach(async () => {
  restore?.();
  restore = undefined;
  await t?.close();
  t = undefined;
});

describe('reloadRoutes', () => {
  it('reads the rewritten bundles again, and answers with their routes', async () => {
    t = await startTestSandbox();
    const before = t.sandbox.routes;
    const { atime, mtime } = statSync(bundle);
    restore = () => utimesSync(bundle, atime, mtime);
    utimesSync(bundle, atime, new Date(mtime.getTime() + 1000));
    t.sandbox.reloadRoutes();
    const begin = (routes: typeof before) => routes.find((r) => r.operationId === 'begin')!;
    expect(begin(t.sandbox.routes)).not.toBe(begin(before));
    expect(t.sandbox.routes.map((r) => r.operationId)).toEqual(before.map((r) => r.operationId));
    expect((await t.a.begin({})).id).toMatch(/^sess_/);
  });

  it('gives a path parameter its value after the reload (the set of routes with parameters was the old one)', async () => {
    t = await startTestSandbox({ config: { companies: [{ name: 'Company A', companyKey: keyA, registries: ['companies-house'] }] } });
    const { atime, mtime } = statSync(bundle);
    restore = () => utimesSync(bundle, atime, mtime);
    utimesSync(bundle, atime, new Date(mtime.getTime() + 1000));
    t.sandbox.reloadRoutes();
    const answer = await fetch(`${t.url}/check-in-companies-house`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: keyA }) });
    expect([answer.status, (await answer.json()).result?.registry]).toEqual([200, 'companies-house']);
  });
});
