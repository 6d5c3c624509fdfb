import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'scripts',
    // One test process runs the project's files one after another, sharing the modules they import (see
    // docs/testing.md, running the tests): the files clean up what they start.
    isolate: false,
    include: ['*.test.ts'],
    testTimeout: 60_000,
  },
});
