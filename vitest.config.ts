import { defineConfig } from 'vitest/config';

// One vitest run over every workspace; each folder with tests is its own project.
export default defineConfig({
  test: {
    projects: ['openapi', 'docs', 'scripts', 'packages/*', 'packages/sandbox/vitest.*.config.ts'],
    // vitest's default for a run is one worker fewer than the cores: one on this 2-core machine, where
    // many tests mostly wait on a child process (Prism, chromium, PostgreSQL). Three keep both cores busy
    // while one of them waits (docs/testing.md: 213 s against 228 to 235 s with two on a quiet clone).
    maxWorkers: 3,
    // Passes the contract project's Prism pair on to the docs' code samples (see the file).
    globalSetup: ['vitest.mocks.global-setup.ts'],
  },
});
