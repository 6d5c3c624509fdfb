import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'types',
    include: ['scripts/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
