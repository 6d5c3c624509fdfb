// Issue 15: the sandbox scenario tests on PGlite and on PostgreSQL (SANDBOX_TEST_STORE, sandbox.test-helper.ts),
// a representative subset (sessions, users and groups, the end-to-end journey): the whole set on a SQL store
// takes minutes on a busy machine, and memory runs it all in the `sandbox` project.
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

const scenarios = ['src/handlers/sessions.test.ts', 'src/handlers/users-groups.test.ts', 'src/end-to-end.test.ts'];

export const storeProject = (store: 'pglite' | 'postgres'): UserWorkspaceConfig =>
  defineProject({
    test: {
      name: `sandbox-${store}`,
      isolate: false,
      include: scenarios,
      testTimeout: 60_000,
      hookTimeout: 120_000,
      env: { SANDBOX_TEST_STORE: store },
      // The throwaway cluster, one with the sandbox project's (vitest.pg-cluster.ts); the helper makes a
      // database of its own on it.
      globalSetup: store === 'postgres' ? ['vitest.pg-cluster.ts'] : [],
    },
  });
