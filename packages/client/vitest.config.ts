import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'client',
    // One test process runs the project's files one after another, sharing the modules they import (see
    // docs/testing.md, running the tests): the files clean up what they start.
    isolate: false,
    include: ['src/**/*.test.ts'],
    // `npm test` turns it off (IDV_VITEST_TYPECHECK=off): scripts/typecheck.test.ts checks the same files
    // with the same tsconfig.json there, sharing what it parses with the other packages' programs.
    typecheck: { enabled: process.env.IDV_VITEST_TYPECHECK !== 'off', include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
