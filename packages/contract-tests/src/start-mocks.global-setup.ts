// Starts both Prism mocks and the sandbox on free ports of 127.0.0.1 once for the whole contract run.
import type { TestProject } from 'vitest/node';
import { startMocks } from '@idv-toolkit/mock';
import { companiesFrom, createSandbox } from '@idv-toolkit/sandbox';
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
  const sandbox = createSandbox({
    rateLimit: 1_000_000,
    companies: companiesFrom({ companies: [{ companyKey: fakeKey }, { companyKey: otherFakeKey, screeningPaid: false, trustedDatabase: false, registries: [] }] }),
  });
  project.provide('mockUrls', urls);
  project.provide('sandboxUrl', await sandbox.listen(0, '127.0.0.1'));
  return async () => {
    await Promise.all([stop(), sandbox.close()]);
  };
}
