import { defineProject } from 'vitest/config';

export default defineProject({
  // One throwaway PostgreSQL cluster for the project's tests (inject('postgresUrl')), shared with the
  // sandbox-postgres project (vitest.pg-cluster.ts); scripts/install-postgres.sh.
  test: {
    name: 'sandbox',
    // One process runs the project's files one after another, each module imported once (docs/testing.md,
    // running the tests): files clean up what they start. It was isolated while event-loop.test.ts bounded
    // a turn to 50 ms; that bound is a benchmark now (bench/event-loop.bench.mjs).
    isolate: false,
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    globalSetup: ['vitest.pg-cluster.ts'],
  },
});
