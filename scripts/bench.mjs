#!/usr/bin/env node
// `npm run bench`: builds, then runs each benchmark against its baseline in the same run and prints the
// figures with their targets. Not a test: figures depend on the machine, so nothing here fails a build.
import { ensureInstalled } from './ensure-installed.mjs';
import { run } from './run.mjs';

ensureInstalled();
if ((await run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'])) !== 0) process.exit(1);

const { clientSize, clientThroughput } = await import('../bench/client.bench.mjs');
const verdict = (ok) => (ok ? 'meets target' : 'MISSES target');

const size = await clientSize();
console.log(`client bundle: ${(size.minified / 1024).toFixed(2)} kB min, ${(size.gzipped / 1024).toFixed(2)} kB min+gzip (target <= 5 kB): ${verdict(size.gzipped <= 5 * 1024)}`);

const speed = await clientThroughput();
console.log(
  `client throughput: ${speed.clientRps.toFixed(0)} req/s vs raw fetch ${speed.rawFetchRps.toFixed(0)} req/s, ` +
    `ratio ${speed.ratio.toFixed(3)} (target >= 0.90): ${verdict(speed.ratio >= 0.9)}; ` +
    `bare openapi-fetch ratio ${speed.bareOpenapiFetchRatio.toFixed(3)} ` +
    `(median of ${speed.rounds} alternating rounds of ${speed.total} requests, ${speed.concurrency} in flight)`,
);
