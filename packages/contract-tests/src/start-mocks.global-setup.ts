// Starts both Prism mocks on free ports of 127.0.0.1 once for the whole contract run.
import type { TestProject } from 'vitest/node';
import { startMocks } from '@idv-toolkit/mock';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrls: { current: string; legacy: string };
  }
}

export default async function setup(project: TestProject) {
  const { urls, stop } = await startMocks({ ports: { current: 0, legacy: 0 } });
  project.provide('mockUrls', urls);
  return stop;
}
