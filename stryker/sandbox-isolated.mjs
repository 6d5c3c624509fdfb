import sandbox from './sandbox.config.mjs';

// The sandbox scope with each test file's modules loaded afresh (stryker/vitest.sandbox-isolated.config.ts),
// for files whose code runs at load (tables, defaults, data built once): with the shared modules of the
// usual runs such a mutant is never switched on. Not a scope of `npm run mutation` (its name does not end
// in .config.mjs); run it as `npx stryker run stryker/sandbox-isolated.mjs --mutate=... --incrementalFile=...`
// with MUTATION_TESTS. Every selected test runs for every mutant: per-test coverage was seen to miss the
// test that kills a mutant in isolated runs (docs/testing.md), so keep MUTATION_TESTS to quick files.
export default { ...sandbox, coverageAnalysis: 'all', tempDirName: '.mutation/tmp-isolated', vitest: { configFile: 'stryker/vitest.sandbox-isolated.config.ts' } };
