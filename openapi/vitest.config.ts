import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'openapi',
    // One test process runs the project's files one after another, sharing the modules they import (see
    // docs/testing.md, running the tests): the files clean up what they start.
    isolate: false,
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
