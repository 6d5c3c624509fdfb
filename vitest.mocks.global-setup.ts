// The docs' code samples run against Prism mocks of both interfaces (inject('mockUrls')). The contract
// project's globalSetup starts such a pair for the whole run; vitest runs this one, the root project's,
// after the projects' own (and in the same process), so when the contract project is in the run its pair
// is passed on to every project that has none, and docs/tests/code-samples.test.ts does not start a second
// one (a Prism pair's start: 2.4 s of CPU). Without the contract project, code-samples starts its own.
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrls: { current: string; legacy: string };
  }
}

export default function setup(root: TestProject) {
  const contract = root.vitest.projects.find((project) => project.name === 'contract');
  const mockUrls = contract?.getProvidedContext().mockUrls;
  if (mockUrls) root.provide('mockUrls', mockUrls);
}
