import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'throttle-redis',
    // One test process runs the project's files one after another, sharing the modules they import (see
    // docs/testing.md, running the tests): the files clean up what they start.
    isolate: false,
    include: ['src/**/*.test.ts'],
    // One redis-server on a free port for the whole project, installed by scripts/install-redis.sh.
    globalSetup: ['src/redis-server.test-helper.ts'],
    testTimeout: 30_000,
  },
});
