import { scopeConfig } from './scope.mjs';

// All of the sandbox's code but its two command lines (cli.ts, trigger.ts), which tests start as child
// processes, where no mutant is ever active (docs/testing.md). Tests and their helpers are not mutated.
export default scopeConfig('sandbox', [
  'packages/sandbox/src/**/*.ts',
  '!packages/sandbox/src/**/*.test.ts',
  '!packages/sandbox/src/**/*.test-helper.ts',
  '!packages/sandbox/src/**/*.test-d.ts',
  '!packages/sandbox/src/cli.ts',
  '!packages/sandbox/src/trigger.ts',
]);
