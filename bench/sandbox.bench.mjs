// The sandbox against Prism (quiet) and a bare node:http server answering a fixed body, on the same
// operations (add-blacklist-record, list-blacklist-records), in the same run, alternating rounds, each
// server in its own process and the load from wrk (Debian's; a JavaScript load generator saturates first). Targets (issue: sandbox core): >= 4x Prism's
// requests per second, >= 40 % of bare node:http, p99 <= 5 ms at 10 connections, start-up < 0.5 s (with
// its default store, PGlite, issue 15: <= 1 s).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMocks } from '@idv-toolkit/mock';
import { median } from './rounds.mjs';
import { bareServer, startProcess } from './processes.mjs';
import { wrk } from './wrk.mjs';

const require = createRequire(import.meta.url);
// SANDBOX_CLI runs another build of the command line (a candidate compiled elsewhere) against the same baselines.
const sandboxCli = process.env.SANDBOX_CLI ?? require.resolve('@idv-toolkit/sandbox').replace(/index\.js$/, 'cli.js');
const demoKey = 'ck_test_sandbox_demo_key_0000';


const bodies = {
  add: JSON.stringify({ companyKey: demoKey, query: { reason: 'Bench', documentNumber: 'BENCH-%n' } }),
  list: JSON.stringify({ companyKey: demoKey, query: { offset: 0, limit: 10 } }),
};
const paths = { add: '/add-blacklist-record', list: '/list-blacklist-records' };

// add-blacklist-record stores a record a request: lift the per-company cap (50,000 by default) for the run.
// --memory: the memory store's figures (the command line's default is PGlite in .sandbox-data/).
// No --quiet: the request log is on, as under `npm start` (issue 17): the console's ring takes every request's
// bodies and the sandbox writes a line per request to its standard output (counted below, to show it).
const sandboxArgs = [sandboxCli, '--memory', '--port', '0', '--rate-limit', '1000000000', '--max-records', '100000000'];

/** Start-up times of `starts` sandbox processes one after another, each stopped before the next. */
async function startupTimes(starts, args = () => sandboxArgs) {
  const times = [];
  for (let start = 0; start < starts; start++) {
    const { child, startupMs } = await startProcess(args());
    times.push(startupMs);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  }
  return times;
}

/**
 * CPU time (ms) a process has used, from /proc (Linux; undefined elsewhere). Requests per second on a
 * busy machine measure the other processes too; CPU time per request measures the server's own work.
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return undefined;
  }
}

/** wrk against one server, with the CPU time its process spent per request (µs) when it is ours. */
async function measured(url, body, { seconds, connections }, pid) {
  const before = pid === undefined ? undefined : cpuMs(pid);
  const figure = await wrk(url, body, { seconds, connections });
  const after = pid === undefined ? undefined : cpuMs(pid);
  return { ...figure, cpuUs: before === undefined || after === undefined ? undefined : ((after - before) * 1000) / (figure.rps * seconds) };
}

export async function sandboxBench({ rounds = 5, seconds = 2, connections = 10, starts = 5 } = {}) {
  // One start is at the mercy of whatever else the machine does at that moment: take the median of several.
  const startups = await startupTimes(starts);
  // With the default store, PGlite (issue 15's figure), in a folder of the run's own: the first start
  // creates the database (the range's top), the others open it.
  const data = mkdtempSync(join(tmpdir(), 'idv-bench-data-'));
  let databaseStartups;
  try {
    databaseStartups = await startupTimes(starts, () => [sandboxCli, '--port', '0', '--quiet', '--data', data]);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
  const sandbox = await startProcess(sandboxArgs);
  let loggedLines = 0;
  let counting = false; // from the first request on: the start-up lines are not requests
  sandbox.child.stdout.on('data', (chunk) => {
    if (counting) for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) loggedLines++;
  });
  const bare = await startProcess(['-e', bareServer]);
  const prism = await startMocks({ ports: { current: 0, legacy: 0 } });
  const urls = { sandbox: sandbox.url, prism: prism.urls.current, bare: bare.url };
  const pids = { sandbox: sandbox.child.pid, bare: bare.child.pid };
  const results = {};
  counting = true;
  try {
    for (const operation of ['add', 'list']) {
      const figures = { sandbox: [], prism: [], bare: [] };
      for (const name of Object.keys(urls)) await wrk(urls[name] + paths[operation], bodies[operation], { seconds: 1, connections });
      for (let round = 0; round < rounds; round++) {
        const order = Object.keys(urls);
        if (round % 2) order.reverse();
        for (const name of order) figures[name].push(await measured(urls[name] + paths[operation], bodies[operation], { seconds, connections }, pids[name]));
      }
      const rps = (name) => figures[name].map((f) => f.rps);
      results[operation] = {
        sandboxRps: median(rps('sandbox')),
        prismRps: median(rps('prism')),
        bareRps: median(rps('bare')),
        vsPrism: median(rps('sandbox').map((r, i) => r / rps('prism')[i])),
        vsBare: median(rps('sandbox').map((r, i) => r / rps('bare')[i])),
        p99Ms: median(figures.sandbox.map((f) => f.p99Ms)),
        // The lowest of the rounds: the one least disturbed by other processes.
        ...(figures.sandbox[0].cpuUs === undefined ? {} : { sandboxCpuUs: Math.min(...figures.sandbox.map((f) => f.cpuUs)), bareCpuUs: Math.min(...figures.bare.map((f) => f.cpuUs)) }),
      };
    }
    // The lines are written in batches (50 ms at most): let the last one arrive.
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (loggedLines === 0) throw new Error('The sandbox logged no request: the bench must measure it with its request log on');
  } finally {
    sandbox.child.kill();
    bare.child.kill();
    await prism.stop();
  }
  const range = (times) => [Math.min(...times), Math.max(...times)];
  return { loggedLines, startupMs: median(startups), startupRangeMs: range(startups), databaseStartupMs: median(databaseStartups), databaseStartupRangeMs: range(databaseStartups), starts, rounds, seconds, connections, ...results };
}
