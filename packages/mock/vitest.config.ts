import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'mock', include: ['src/**/*.test.ts'], testTimeout: 30_000 },
});
