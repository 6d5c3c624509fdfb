import { defineProject } from 'vitest/config';

export default defineProject({
  // One throwaway PostgreSQL cluster for the project's tests (inject('postgresUrl')); scripts/install-postgres.sh.
  test: { name: 'sandbox', include: ['src/**/*.test.ts'], testTimeout: 20_000, globalSetup: ['src/sql/pg-cluster.test-helper.ts'] },
});
