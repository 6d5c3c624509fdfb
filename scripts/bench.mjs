#!/usr/bin/env node
// `npm run bench`: builds, then runs each benchmark against its baseline in the same run and prints the
// figures with their targets. Not a test: figures depend on the machine, so nothing here fails a build.
import { ensureInstalled } from './ensure-installed.mjs';
import { run } from './run.mjs';

ensureInstalled();
if ((await run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'])) !== 0) process.exit(1);

const { clientSize, clientThroughput } = await import('../bench/client.bench.mjs');
const verdict = (ok) => (ok ? 'meets target' : 'MISSES target');

const { buildBench } = await import('../bench/build.bench.mjs');
const build = buildBench();
console.log(
  `cold build (lint, bundle, generate, build, docs; turbo --force): ${build.coldSeconds.toFixed(2)} s (target <= 5 s): ${verdict(build.coldSeconds <= 5)}; ` +
    `build with no change: ${build.warmSeconds.toFixed(2)} s (target <= 0.5 s): ${verdict(build.warmSeconds <= 0.5)}; ` +
    `compiling types, client and sandbox: ${build.compileSeconds.toFixed(2)} s vs ${build.tscSeconds.toFixed(2)} s with a tsc start each ` +
    `(${(build.tscSeconds / build.compileSeconds).toFixed(1)}x faster) (medians of ${build.rounds} rounds; ` +
    `cold build CPU ${build.coldCpuSeconds.toFixed(2)} s, load average ${build.loadAverage.toFixed(2)} at the start)`,
);

const { devLoopBench } = await import('../bench/dev.bench.mjs');
const loop = await devLoopBench();
const seconds = (figure) => (figure.median === null ? 'not within 60 s' : `${figure.median.toFixed(2)} s (worst ${figure.worst.toFixed(2)} s)`);
console.log(
  `npm run dev, a save to: types ${seconds(loop.types)}, compiled packages ${seconds(loop.compiled)}, docs ${seconds(loop.docs)}, ` +
    `mock ${seconds(loop.mock)}, sandbox ${seconds(loop.sandbox)} (target <= 1.5 s each): ` +
    `${verdict(['types', 'compiled', 'docs', 'mock', 'sandbox'].every((name) => loop[name].median !== null && loop[name].worst <= 1.5))}; ` +
    `mock unreachable ${loop.failedProbes} of ${loop.probes} probes during the reloads (target 0): ${verdict(loop.failedProbes === 0)} ` +
    `(${loop.rounds} saves, each adding an operation; load average ${loop.loadAverage.toFixed(2)}; ` +
    `CPU of dev's processes per save ${loop.cpu.toDocs.toFixed(2)} s: dev ${loop.cpu.toDocsByProcess.dev.toFixed(2)}, Prisms ${loop.cpu.toDocsByProcess.prism.toFixed(2)}, docs ${loop.cpu.toDocsByProcess.docs.toFixed(2)})`,
);

const size = await clientSize();
console.log(`client bundle: ${(size.minified / 1024).toFixed(2)} kB min, ${(size.gzipped / 1024).toFixed(2)} kB min+gzip (target <= 5 kB): ${verdict(size.gzipped <= 5 * 1024)}`);

const speed = await clientThroughput();
console.log(
  `client throughput: ${speed.clientRps.toFixed(0)} req/s vs raw fetch ${speed.rawFetchRps.toFixed(0)} req/s, ` +
    `ratio ${speed.ratio.toFixed(3)} (target >= 0.95, request ids, hooks and throttle on): ${verdict(speed.ratio >= 0.95)}; ` +
    `bare openapi-fetch ratio ${speed.bareOpenapiFetchRatio.toFixed(3)}; ` +
    `CPU per request: client ${speed.clientCpuUs.toFixed(0)} µs, raw fetch ${speed.rawFetchCpuUs.toFixed(0)} µs, ratio ${speed.cpuRatio.toFixed(3)} (raw over client; the firmer figure on a shared machine) ` +
    `against raw fetch that does not follow redirects either (what the client's own features cost): ratio ${speed.featureRatio.toFixed(3)}, CPU ratio ${speed.featureCpuRatio.toFixed(3)} ` +
    `(median of ${speed.rounds} alternating rounds of ${speed.total} requests, ${speed.concurrency} in flight)`,
);

if ((await run('bash', ['scripts/install-bench-tools.sh'])) !== 0) process.exit(1);
const { sandboxBench } = await import('../bench/sandbox.bench.mjs');
const sandbox = await sandboxBench();
console.log(
  `sandbox start-up: ${sandbox.startupMs.toFixed(0)} ms to listening, process spawn included (target < 500 ms): ${verdict(sandbox.startupMs < 500)} ` +
    `(median of ${sandbox.starts} starts, ${sandbox.startupRangeMs.map((ms) => ms.toFixed(0)).join(' to ')} ms); ` +
    `with its default store, PGlite: ${sandbox.databaseStartupMs.toFixed(0)} ms (target <= 1 s): ${verdict(sandbox.databaseStartupMs <= 1000)} ` +
    `(${sandbox.databaseStartupRangeMs.map((ms) => ms.toFixed(0)).join(' to ')} ms, the first start creating the database)`,
);
for (const [operation, name] of [['add', 'add-blacklist-record'], ['list', 'list-blacklist-records']]) {
  const f = sandbox[operation];
  console.log(
    `sandbox ${name}: ${f.sandboxRps.toFixed(0)} req/s; Prism ${f.prismRps.toFixed(0)}, bare node:http ${f.bareRps.toFixed(0)}; ` +
      `${f.vsPrism.toFixed(2)}x Prism (target >= 4): ${verdict(f.vsPrism >= 4)}; ${(f.vsBare * 100).toFixed(0)} % of bare (target >= 40 %): ${verdict(f.vsBare >= 0.4)}; ` +
      `p99 ${f.p99Ms.toFixed(2)} ms at ${sandbox.connections} connections (target <= 5 ms): ${verdict(f.p99Ms <= 5)}` +
      (f.sandboxCpuUs === undefined ? '' : `; CPU per request ${f.sandboxCpuUs.toFixed(0)} µs vs bare ${f.bareCpuUs.toFixed(0)} µs (${((f.bareCpuUs / f.sandboxCpuUs) * 100).toFixed(0)} %, the least disturbed round)`),
  );
}
console.log(`(medians of ${sandbox.rounds} alternating rounds of ${sandbox.seconds} s of wrk with ${sandbox.connections} connections, each server in its own process)`);

// Issue 15: memory, PGlite and PostgreSQL (one and two instances) side by side against Prism and bare node:http.
const { storesBench, storesReport } = await import('../bench/stores.bench.mjs');
for (const line of storesReport(await storesBench())) console.log(line);

// Issue 14, W3: the longest event-loop turn of the sandbox's heaviest requests.
const { eventLoopBench } = await import('../bench/event-loop.bench.mjs');
const loopTurns = await eventLoopBench();
for (const [name, figure] of Object.entries(loopTurns.results)) {
  console.log(
    `sandbox ${name}: longest event-loop turn ${figure.cpuMs.toFixed(1)} ms of CPU (${figure.wallMs.toFixed(1)} ms of wall time) ` +
      `(target < 50 ms): ${verdict(figure.cpuMs < 50)} (median of ${loopTurns.rounds} requests, another client asking meanwhile)`,
  );
}
