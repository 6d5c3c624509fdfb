import { defineProject } from 'vitest/config';

export default defineProject({
  // One throwaway PostgreSQL cluster for the project's tests (inject('postgresUrl')); scripts/install-postgres.sh.
  test: {
    name: 'sandbox',
    // Isolated, unlike the other projects (docs/testing.md, running the tests): event-loop.test.ts bounds
    // the work between turns to 50 ms, and after the project's other files in the same process it measured
    // 65 ms (load 18); alone it passes. Until the timing tests have a project of their own.
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    globalSetup: ['src/sql/pg-cluster.test-helper.ts'],
  },
});
