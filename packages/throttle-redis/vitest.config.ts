import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'throttle-redis',
    include: ['src/**/*.test.ts'],
    // One redis-server on a free port for the whole project, installed by scripts/install-redis.sh.
    globalSetup: ['src/redis-server.test-helper.ts'],
    testTimeout: 30_000,
  },
});
