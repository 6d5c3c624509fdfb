import { defineProject } from 'vitest/config';

export default defineProject({
  // One throwaway PostgreSQL cluster for the project's tests (inject('postgresUrl')); scripts/install-postgres.sh.
  test: {
    name: 'sandbox',
    // One test process runs the project's files one after another, sharing the modules they import (see
    // docs/testing.md, running the tests): the files clean up what they start.
    isolate: false,
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    globalSetup: ['src/sql/pg-cluster.test-helper.ts'],
  },
});
