// What every mutation scope shares: the vitest runner with per-test coverage, one test process (the
// machine has two cores, shared), incremental runs, and the reports under the gitignored .mutation/.
export function scopeConfig(scope, mutate) {
  return {
    testRunner: 'vitest',
    plugins: ['@stryker-mutator/vitest-runner'],
    vitest: { configFile: `stryker/vitest.${scope}.config.ts` },
    mutate,
    coverageAnalysis: 'perTest',
    // The machine is shared and slow at times: a mutant counts as a timeout (caught: it hangs) only when it
    // runs twice as long as the unmutated tests plus 10 s.
    timeoutFactor: 2,
    timeoutMS: 10_000,
    // Stryker would add `// @ts-nocheck` to every source file it copies, which changes the committed
    // generated types (and the test that compares them with a fresh generation); vitest does not type-check.
    disableTypeChecks: false,
    concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
    incremental: true,
    incrementalFile: `.mutation/${scope}/incremental.json`,
    reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
    clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true, reportMutants: false },
    htmlReporter: { fileName: `.mutation/${scope}/report.html` },
    jsonReporter: { fileName: `.mutation/${scope}/report.json` },
    tempDirName: '.mutation/tmp',
    // Earlier reports need not be copied into the folder Stryker tests in.
    ignorePatterns: ['/.mutation'],
    cleanTempDir: true,
  };
}
