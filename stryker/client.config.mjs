import { scopeConfig } from './scope.mjs';

// All of the client's code; the tests and their helpers are not mutated.
export default scopeConfig('client', ['packages/client/src/**/*.ts', '!packages/client/src/**/*.test.ts', '!packages/client/src/**/*.test-d.ts', '!packages/client/src/**/*.test-helper.ts']);
