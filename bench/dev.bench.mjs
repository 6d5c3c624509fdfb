// The maintainer's loop (issue 16): with `npm run dev` running, how long from a save of the spec to each
// artifact having the change: the generated types, the compiled packages, the docs page, the mocks and the
// sandbox answering the new operation; and whether the mock ever failed to answer meanwhile. Each round
// adds one operation (a path file, its three schemas, its `paths:` entry), as docs/changing-the-api.md says.
// Runs on a temporary copy of the repository (the files git tracks or would track, node_modules linked to
// this checkout's), so openapi/ of the checkout is never touched. Target: every artifact <= 1.5 s.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addOperation, countGroupsOperation } from '../scripts/fixtures/count-groups.mjs';
import { scratchRepository } from '../scripts/fixtures/scratch-repository.mjs';
import { median } from './rounds.mjs';

const post = (url, body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(5_000) });
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds from `since` until `check()` resolves true, polled every 20 ms; undefined after `limitMs`. */
async function until(check, since, limitMs) {
  while (performance.now() - since < limitMs) {
    if (await check().catch(() => false)) return (performance.now() - since) / 1000;
    await delay(20);
  }
  return undefined;
}

/**
 * CPU seconds used so far by process `pid` and every process under it (Linux /proc: user and system time,
 * with those of its children that ended and were waited for): the dev loop's cost on a machine whose load
 * makes wall times say little. Ticks of 10 ms.
 */
export function treeCpu(pid) {
  return Object.values(treeCpuByKind(pid)).reduce((sum, seconds) => sum + seconds, 0);
}

/** What a process of dev's is, from its command line: its Prisms, its docs build, or dev itself (with its worker threads). */
const kindOf = (command) => (command.includes('prism-cli') ? 'prism' : command.includes('dev-docs-child') ? 'docs' : command.includes('scripts/dev.mjs') ? 'dev' : 'other');

/** treeCpu by the kind of process (kindOf): where dev's CPU goes. */
export function treeCpuByKind(pid) {
  const stats = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      stats.set(Number(entry), { parent: Number(fields[1]), kind: kindOf(command), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) });
    } catch {
      // A process that ended while this read /proc.
    }
  }
  const ticks = { dev: 0, prism: 0, docs: 0, other: 0 };
  const visit = (id) => {
    const stat = stats.get(id);
    if (stat) ticks[stat.kind] += stat.ticks;
    for (const [child, { parent }] of stats) if (parent === id) visit(child);
  };
  visit(pid);
  return Object.fromEntries(Object.entries(ticks).map(([kind, count]) => [kind, count / 100]));
}

/**
 * Per step of dev's report of a save (`check`, `bundle`, `sandbox`, `types`, `compile`, `mocks`, `docs`),
 * the seconds from the save at which dev says it ended: its own clock, which starts at the first change it
 * saw, so that where the time goes is read from the same run as the artifacts' times.
 */
export function stepTimes(report) {
  const steps = {};
  for (const line of report.split('\n')) {
    const step = /^ {2}(\w+) +/.exec(line)?.[1];
    const at = /, done (\d+) ms after the save$/.exec(line)?.[1] ?? /fresh (\d+) ms after the save/.exec(line)?.[1] ?? /\((\d+) ms[;)]/.exec(line)?.[1];
    if (step && at !== undefined && !(step in steps)) steps[step] = Number(at) / 1000;
  }
  return steps;
}

/**
 * Starts `npm run dev` (scripts/dev.mjs, with `devArgs` added) in a copy of the repository, makes `rounds`
 * saves, and returns per artifact the median seconds from the save, the worst round, the mock's failed
 * probes during reloads, the median of each step's end by dev's report, and dev's own report of each save.
 */
export async function devLoopBench({ rounds = 3, limitMs = 60_000, devArgs = [] } = {}) {
  const scratch = scratchRepository({ prefix: 'idv-dev-bench-' });
  const work = scratch.dir;
  const dev = spawn(process.execPath, ['scripts/dev.mjs', '--port-base', '0', '--quiet', ...devArgs], { cwd: work, env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  dev.stdout.on('data', (chunk) => (output += chunk));
  dev.stderr.on('data', (chunk) => (output += chunk));
  const stopDev = () => new Promise((resolve) => (dev.exitCode !== null ? resolve() : (dev.once('exit', resolve), dev.kill('SIGTERM'))));
  try {
    const began = performance.now();
    if ((await until(async () => output.includes('Ctrl-C stops'), began, 300_000)) === undefined) throw new Error(`npm run dev did not start:\n${output}`);
    const url = (label) => new RegExp(`${label}\\s+(http://\\S+)`).exec(output)[1];
    const urls = { docs: url('API reference \\(docs\\)'), mock: url('Mock, current interface \\(Prism\\)'), sandbox: url('Sandbox \\(stateful, both APIs\\)') };
    const artifacts = ['types', 'compiled', 'docs', 'mock', 'sandbox'];
    const figures = Object.fromEntries(artifacts.map((name) => [name, []]));
    const reports = [];
    let failedProbes = 0;
    let probes = 0;
    // CPU of dev's processes from each save to its docs line, and from the first save to the last docs line.
    const cpuToDocs = [];
    let cpuAtFirstSave;
    // The same per kind of process (dev with its threads, its Prisms, its docs build), from save to docs line.
    const cpuToDocsByKind = [];
    /** The mock asked for an existing operation every 20 ms until `stop()`: every answer must come. */
    const probeMock = () => {
      let probing = true;
      const probe = (async () => {
        while (probing) {
          probes++;
          await post(`${urls.mock}/list-groups`, { companyKey: 'ck_test_not_a_real_key_0000' }).then((r) => r.arrayBuffer(), () => failedProbes++);
          await delay(20);
        }
      })();
      return () => ((probing = false), probe);
    };
    /** Seconds from `saved` until each artifact has `operation` (undefined: not within `limitMs`). */
    const artifactTimes = (operation, saved, limitMs) => {
      const table = (file) => async () => readFileSync(join(work, file), 'utf8').includes(`"${operation.operationId}"`);
      let docsEtag;
      return Promise.all([
        until(table('packages/types/src/generated/current-operations.ts'), saved, limitMs),
        // The compiled client builds its methods from the compiled types package's table when imported.
        until(table('packages/types/dist/generated/current-operations.js'), saved, limitMs),
        // The page is 2.5 MB: asked again only once its ETag changed (a 304 until then), so that polling it
        // every 20 ms does not load dev's docs server and this process more than the save itself.
        until(async () => {
          const answer = await fetch(`${urls.docs}/current.html`, { headers: docsEtag ? { 'if-none-match': docsEtag } : {} });
          if (answer.status === 304) return false;
          docsEtag = answer.headers.get('etag') ?? undefined;
          return (await answer.text()).includes(`"operationId":"${operation.operationId}"`);
        }, saved, limitMs),
        until(async () => (await post(`${urls.mock}${operation.path}`, { companyKey: 'ck_test_not_a_real_key_0000' })).status === 200, saved, limitMs),
        until(async () => {
          const answer = await post(`${urls.sandbox}${operation.path}`, { companyKey: 'ck_test_sandbox_demo_key_0000' });
          return answer.status === 200 && answer.headers.get('x-sandbox-emulated') === 'false';
        }, saved, limitMs),
      ]);
    };
    const kindsBetween = (from, to) => Object.fromEntries(Object.keys(to).map((kind) => [kind, to[kind] - (from[kind] ?? 0)]));
    for (let n = 1; n <= rounds; n++) {
      const operation = countGroupsOperation(n);
      const stopProbe = probeMock();
      const reportStart = output.length;
      const cpuAtSave = treeCpu(dev.pid);
      const byKindAtSave = treeCpuByKind(dev.pid);
      cpuAtFirstSave ??= cpuAtSave;
      const saved = performance.now();
      addOperation(join(work, 'openapi/current'), operation);
      const times = await artifactTimes(operation, saved, limitMs);
      artifacts.forEach((name, i) => figures[name].push(times[i]));
      // dev's report of the save ends with its docs line: wait for it before the next save.
      await until(async () => /\n {2}docs {5}/.test(output.slice(reportStart)), saved, limitMs);
      cpuToDocs.push(treeCpu(dev.pid) - cpuAtSave);
      cpuToDocsByKind.push(kindsBetween(byKindAtSave, treeCpuByKind(dev.pid)));
      await stopProbe();
      reports.push(output.slice(reportStart).trim());
    }
    // What the asking itself costs dev's processes (the sandbox, docs server and Prism answering every 20 ms):
    // the same polls for an operation no save adds, for a few seconds with no save.
    const cpuAtLastRound = treeCpu(dev.pid);
    const pollingCpuAtStart = treeCpuByKind(dev.pid);
    const pollingSince = performance.now();
    const stopIdleProbe = probeMock();
    await artifactTimes(countGroupsOperation(rounds + 1), pollingSince, 5_000);
    await stopIdleProbe();
    const pollingSeconds = (performance.now() - pollingSince) / 1000;
    const pollingPerSecond = Object.fromEntries(Object.entries(kindsBetween(pollingCpuAtStart, treeCpuByKind(dev.pid))).filter(([kind]) => kind !== 'other').map(([kind, seconds]) => [kind, Number((seconds / pollingSeconds).toFixed(3))]));
    // null: the artifact never had the change within `limitMs` in some round.
    const summary = (values) => (values.some((v) => v === undefined) ? { median: null, worst: null } : { median: median(values), worst: Math.max(...values) });
    const byStep = {};
    for (const report of reports) for (const [step, at] of Object.entries(stepTimes(report))) (byStep[step] ??= []).push(at);
    const steps = Object.fromEntries(Object.entries(byStep).map(([step, values]) => [step, Number(median(values).toFixed(3))]));
    // Everything dev's processes did per save: its work until the docs line, and what it starts behind it
    // (the next warm Prism, the standby), as far as the next save.
    const byKind = Object.fromEntries(['dev', 'prism', 'docs'].map((kind) => [kind, Number(median(cpuToDocsByKind.map((round) => round[kind])).toFixed(2))]));
    const cpu = { toDocs: Number(median(cpuToDocs).toFixed(2)), toDocsByProcess: byKind, perRound: Number(((cpuAtLastRound - cpuAtFirstSave) / rounds).toFixed(2)), pollingPerSecond };
    return { rounds, ...Object.fromEntries(artifacts.map((name) => [name, summary(figures[name])])), probes, failedProbes, loadAverage: loadavg()[0], steps, cpu, reports };
  } finally {
    await stopDev();
    scratch.remove();
  }
}

// Stryker disable all: run by hand, `node bench/dev.bench.mjs`, or by `npm run bench`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `node bench/dev.bench.mjs [rounds] [dev's flags...]`, e.g. `node bench/dev.bench.mjs 3 --no-standby`.
  const result = await devLoopBench({ rounds: Number(process.argv[2] ?? 3), devArgs: process.argv.slice(3) });
  console.log(JSON.stringify(result, null, 2));
}
