// Build times (issues 16 and 18). Targets: a cold build of everything (lint, bundle, generate, build, docs
// of all documents: reference pages, guides, downloads) in <= 5 s; a build with no change in <= 0.5 s (a
// turbo cache hit on every task). Baseline in the same run: the packages compiled by one `tsc` start each (what the build did
// before scripts/compile.mjs), against the compile step the build uses now.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { quietEnv } from '../scripts/run.mjs';
import { median } from './rounds.mjs';

const compiledPackages = ['types', 'client', 'sandbox'];

/** Wall seconds of one run of a command; throws when it fails, since a failed build times nothing. */
function seconds(command, args, options = {}) {
  const began = process.hrtime.bigint();
  const run = spawnSync(command, args, { env: quietEnv, encoding: 'utf8', ...options });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${run.stdout}${run.stderr}`);
  return Number(process.hrtime.bigint() - began) / 1e9;
}

/**
 * CPU seconds (user + system) of every child process this one has waited for, grandchildren included when
 * their parents waited for them: Linux's cutime and cstime, in clock ticks of 1/100 s. On a machine shared
 * with other work the wall time of a build says more about the load than about the build; its CPU time
 * does not, and on two idle cores the cold build takes about half its CPU time when its tasks keep both busy.
 */
function childCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

// What a user types for the no-change build; the cold build calls turbo itself (npx would add ~0.3 s).
const noChangeBuild = () => seconds('npm', ['run', 'build', '--silent']);
const coldBuild = () => seconds('node_modules/.bin/turbo', ['run', 'lint:spec', 'generate', 'build', '--force', '--output-logs=errors-only']);
function coldBuildCpu() {
  const before = childCpuSeconds();
  const wall = coldBuild();
  return { wall, cpu: childCpuSeconds() - before };
}

function compileWithTsc() {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-tsc-'));
  try {
    return compiledPackages.reduce(
      (sum, name) => sum + seconds(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `packages/${name}/tsconfig.build.json`, '--outDir', join(outDir, name)]),
      0,
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const compileWithOxc = () => compiledPackages.reduce((sum, name) => sum + seconds(process.execPath, ['../../scripts/compile.mjs'], { cwd: `packages/${name}` }), 0);

export function buildBench({ rounds = 3 } = {}) {
  const cold = [];
  const coldCpu = [];
  const warm = [];
  const load = loadavg()[0];
  const tsc = [];
  const oxc = [];
  for (let round = 0; round < rounds; round++) {
    const { wall, cpu } = coldBuildCpu();
    cold.push(wall);
    coldCpu.push(cpu);
    warm.push(noChangeBuild());
    tsc.push(compileWithTsc());
    oxc.push(compileWithOxc());
  }
  return { rounds, loadAverage: load, coldSeconds: median(cold), coldCpuSeconds: median(coldCpu), warmSeconds: median(warm), tscSeconds: median(tsc), compileSeconds: median(oxc) };
}
