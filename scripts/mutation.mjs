#!/usr/bin/env node
// `npm run mutation [-- <scope>... [--force]]`
//
// Mutation testing with StrykerJS: changes the code of each scope one small bug at a time and counts the
// bugs that no test catches. Scopes are stryker/<scope>.config.mjs (client, sandbox, types, scripts);
// without a scope it runs them all, one after the other. Runs are incremental (only mutants whose code or
// tests changed since the last run are tested again); `--force` tests every mutant. Reports go to
// .mutation/<scope>/report.html (gitignored). A measurement like `npm run bench`, not part of `npm test`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './run.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const scopes = readdirSync(join(root, 'stryker')).filter((file) => file.endsWith('.config.mjs')).map((file) => file.replace(/\.config\.mjs$/, '')).sort();

/**
 * Counts of one Stryker JSON report per file and in all. The score is the issue's: killed / (killed +
 * survived), where a timeout counts as killed and a mutant no test reaches counts as survived.
 */
export function scoreOf(report) {
  const files = Object.entries(report.files).map(([file, { mutants }]) => {
    const count = (...statuses) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
    return { file, killed: count('Killed'), timeout: count('Timeout'), survived: count('Survived'), noCoverage: count('NoCoverage'), ignored: count('Ignored'), errors: count('CompileError', 'RuntimeError') };
  });
  const total = { file: 'all', ...Object.fromEntries(['killed', 'timeout', 'survived', 'noCoverage', 'ignored', 'errors'].map((key) => [key, files.reduce((sum, file) => sum + file[key], 0)])) };
  const score = (row) => {
    const caught = row.killed + row.timeout;
    const detectable = caught + row.survived + row.noCoverage;
    return detectable === 0 ? null : (100 * caught) / detectable;
  };
  return [...files, total].map((row) => ({ ...row, score: score(row) }));
}

export function formatScores(scope, rows) {
  const lines = [`${scope}: score, killed + timeout / survived + no coverage`];
  for (const row of rows) {
    const score = row.score === null ? '   n/a' : `${row.score.toFixed(1).padStart(5)}%`;
    lines.push(`  ${score}  ${row.killed + row.timeout} / ${row.survived + row.noCoverage}  ${row.file}${row.noCoverage ? ` (${row.noCoverage} without coverage)` : ''}`);
  }
  return lines.join('\n');
}

async function main(argv) {
  const wanted = argv.filter((arg) => !arg.startsWith('-'));
  const flags = argv.filter((arg) => arg.startsWith('-'));
  const unknown = wanted.filter((scope) => !scopes.includes(scope));
  if (unknown.length > 0) {
    console.error(`Unknown mutation scope ${unknown.join(', ')}: choose from ${scopes.join(', ')}.`);
    return 2;
  }
  // The tests read the bundled descriptions and the generated types (turbo's cache makes this quick).
  if ((await run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: root })) !== 0) return 1;
  const summaries = [];
  let failed = 0;
  for (const scope of wanted.length > 0 ? wanted : scopes) {
    const started = Date.now();
    const code = await run('npx', ['stryker', 'run', `stryker/${scope}.config.mjs`, ...flags], { cwd: root });
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    const reportFile = join(root, '.mutation', scope, 'report.json');
    if (code !== 0 || !existsSync(reportFile)) {
      failed++;
      summaries.push(`${scope}: Stryker failed (exit ${code}) after ${minutes} min`);
      continue;
    }
    summaries.push(`${formatScores(scope, scoreOf(JSON.parse(readFileSync(reportFile, 'utf8'))))}\n  (${minutes} min; report: .mutation/${scope}/report.html)`);
  }
  console.log(`\n${summaries.join('\n\n')}`);
  return failed > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
