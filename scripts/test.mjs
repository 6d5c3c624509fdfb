#!/usr/bin/env node
// Runs every test of the repository: builds what the tests read (turbo, cached), runs vitest once over
// all workspaces, and ends with the plain line `N passed, N failed` that CI reads. Exits non-zero on any
// failure, and when no test ran at all.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
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
// Absolute: vitest resolves a relative path against its root, which --config or --root can move.
const report = resolve(`${reportDir}/vitest.json`);
const vitestStarted = performance.now();
const vitest = spawn('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
  // The client's *.test-d.ts are checked by scripts/typecheck.test.ts (packages/client/tsconfig.json
  // includes them): vitest's own typecheck, a tsc of its own, would check them a second time.
  env: { ...quietEnv, IDV_VITEST_TYPECHECK: 'off' },
  detached: true, // its own process group, so that whatever it started can be stopped with it
});
const exited = new Promise((resolve) => vitest.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
// The report is written when every test has run. vitest then awaits each globalSetup's teardown with no
// time limit (its own teardownTimeout starts only after them), so a teardown that never ends would hold CI
// until its time limit. Once the report is there, vitest gets 30 s to exit (teardowns take a few seconds);
// after that its process group is stopped and the run FAILS, naming what was still running, so the
// teardown gets fixed rather than hidden (a redis teardown did this once: docs/testing.md).
const exitGraceMs = 30_000;
const reportWritten = new Promise((resolve) => {
  const poll = setInterval(() => existsSync(report) && (clearInterval(poll), resolve()), 1_000);
  exited.then(() => clearInterval(poll));
});
let code = await Promise.race([exited, reportWritten.then(() => new Promise((resolve) => setTimeout(resolve, exitGraceMs)).then(() => 'stuck'))]);
let stuck = false;
if (code === 'stuck') {
  stuck = true;
  const ps = spawnSync('ps', ['-e', '-o', 'pgid=,pid=,args='], { encoding: 'utf8' }).stdout ?? '';
  const left = ps.split('\n').filter((line) => line.trim().split(/\s+/)[0] === String(vitest.pid)).join('\n');
  console.log(`vitest had not exited ${exitGraceMs / 1000} s after writing its report (a teardown that never ends, or a handle left open); stopping it. Still running:\n${left}`);
  try {
    process.kill(-vitest.pid, 'SIGTERM');
    setTimeout(() => { try { process.kill(-vitest.pid, 'SIGKILL'); } catch {} }, 5_000).unref();
  } catch {}
  code = 1;
}
const seconds = (ms) => Math.round(ms / 1000);
console.log(`npm test took ${seconds(performance.now())} s: ${seconds(vitestStarted)} s to install and build, ${seconds(performance.now() - vitestStarted)} s of vitest`);

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
if (stuck) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(code !== 0 || failed > 0 || passed === 0 ? 1 : 0);
