import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'contract',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/start-mocks.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
