// Starts both Prism mocks and the sandbox on free ports of 127.0.0.1 once for the whole contract run.
import type { TestProject } from 'vitest/node';
import { startMocks } from '@idv-toolkit/mock';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { companiesFrom, createSandbox, openStore } from '@idv-toolkit/sandbox';
import { fakeKey, otherFakeKey } from './fake-key.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrls: { current: string; legacy: string };
    sandboxUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const { urls, stop } = await startMocks({ ports: { current: 0, legacy: 0 } });
  // The contract run sends far more than 600 requests a minute from one IP: the limit has its own tests.
  // SANDBOX_TEST_STORE=pglite (or postgres with SANDBOX_TEST_DATABASE_URL) runs the sandbox's contract on that store (issue 15).
  const chosen = process.env.SANDBOX_TEST_STORE;
  const dir = chosen === 'pglite' ? mkdtempSync(join(tmpdir(), 'contract-pglite-')) : undefined;
  if (chosen === 'postgres' && !process.env.SANDBOX_TEST_DATABASE_URL) throw new Error('SANDBOX_TEST_STORE=postgres needs SANDBOX_TEST_DATABASE_URL');
  const store = dir ? await openStore({ data: dir }) : chosen === 'postgres' ? await openStore({ database: process.env.SANDBOX_TEST_DATABASE_URL }) : undefined;
  if (store) console.log(`contract tests: the sandbox keeps its data ${store.description.split(' (')[0]}`);
  const sandbox = createSandbox({
    database: store?.database,
    rateLimit: 1_000_000,
    companies: companiesFrom({ companies: [{ companyKey: fakeKey }, { companyKey: otherFakeKey, screeningPaid: false, trustedDatabase: false, registries: [] }] }),
  });
  project.provide('mockUrls', urls);
  project.provide('sandboxUrl', await sandbox.listen(0, '127.0.0.1'));
  return async () => {
    await Promise.all([stop(), sandbox.close()]);
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
