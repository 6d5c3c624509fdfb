import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'client',
    // One test process runs the project's files one after another, sharing the modules they import (see
    // docs/testing.md, running the tests): the files clean up what they start.
    isolate: false,
    include: ['src/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
