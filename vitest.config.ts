import { defineConfig } from 'vitest/config';

// One vitest run over every workspace; each folder with tests is its own project.
export default defineConfig({
  test: {
    projects: ['openapi', 'docs', 'scripts', 'packages/*', 'packages/sandbox/vitest.*.config.ts'],
  },
});
