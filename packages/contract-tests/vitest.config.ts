import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'contract',
    // One test process runs the project's files one after another, sharing the modules they import (see
    // docs/testing.md, running the tests): the files clean up what they start.
    isolate: false,
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/start-mocks.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
