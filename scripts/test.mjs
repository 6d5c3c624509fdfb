#!/usr/bin/env node
// Runs every test of the repository: builds what the tests read (turbo, cached), runs vitest once over
// all workspaces, and ends with the plain line `N passed, N failed` that CI reads. Exits non-zero on any
// failure, and when no test ran at all.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureInstalled } from './ensure-installed.mjs';
import { quietEnv, run } from './run.mjs';

ensureInstalled();
// The browser test drives Debian's chromium; install it the same way CI does when it is missing.
if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') && (await run('bash', ['scripts/install-browser.sh'])) !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// The Redis throttle tests start Debian's redis-server; install it the same way when it is missing.
if (spawnSync('redis-server', ['--version']).error && (await run('bash', ['scripts/install-redis.sh'])) !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// The sandbox's SQL tests start a throwaway cluster of Debian's PostgreSQL; install it the same way when
// missing (the script looks for the server's initdb: the client package alone also makes /usr/lib/postgresql).
if ((await run('bash', ['scripts/install-postgres.sh'])) !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const built = await run('npx', ['turbo', 'run', 'build', 'lint:spec', '--output-logs=errors-only']);
if (built !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const reportDir = '.test-reports';
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const report = `${reportDir}/vitest.json`;
const vitest = spawn('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: quietEnv,
  detached: true, // its own process group, so that whatever it started can be stopped with it
});
const exited = new Promise((resolve) => vitest.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
// The report is written when every test has run. A handle some teardown leaves open must not hold CI until
// its time limit: a minute after the report, vitest's process group is stopped and the report decides.
const reportWritten = new Promise((resolve) => {
  const poll = setInterval(() => existsSync(report) && (clearInterval(poll), resolve()), 1_000);
  exited.then(() => clearInterval(poll));
});
let code = await Promise.race([exited, reportWritten.then(() => new Promise((resolve) => setTimeout(resolve, 60_000)).then(() => 'stuck'))]);
if (code === 'stuck') {
  console.log('vitest had not exited a minute after writing its report; stopping it (the report decides)');
  try {
    process.kill(-vitest.pid, 'SIGTERM');
    setTimeout(() => { try { process.kill(-vitest.pid, 'SIGKILL'); } catch {} }, 5_000).unref();
  } catch {}
  code = 0;
}

let passed = 0;
let failed = 0;
try {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites ?? 0);
  if (!summary.success && failed === 0) failed = 1;
} catch {
  failed = 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(code !== 0 || failed > 0 || passed === 0 ? 1 : 0);
