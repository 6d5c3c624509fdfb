// The sandbox against Prism (quiet) and a bare node:http server answering a fixed body, on the same
// operations (add-blacklist-record, list-blacklist-records), in the same run, alternating rounds, each
// server in its own process and the load from this one. Targets (issue: sandbox core): >= 4x Prism's
// requests per second, >= 40 % of bare node:http, p99 <= 5 ms at 10 connections, start-up < 0.5 s.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { startMocks } from '@idv-toolkit/mock';
import { alternate, median } from './rounds.mjs';

const require = createRequire(import.meta.url);
const sandboxCli = require.resolve('@idv-toolkit/sandbox').replace(/index\.js$/, 'cli.js');
const demoKey = 'ck_test_sandbox_demo_key_0000';

const bareServer = `
const body = JSON.stringify({ result: '64f0c1d2e3a4b5c6d7e8f901' });
require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); }); })
  .listen(0, '127.0.0.1', function () { console.log('listening http://127.0.0.1:' + this.address().port); });`;

function startProcess(args) {
  const began = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) resolve({ url, child, startupMs: Number(process.hrtime.bigint() - began) / 1e6 });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
  });
}

function load(url) {
  let n = 0;
  return {
    add: async () => {
      const response = await fetch(`${url}/add-blacklist-record`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ companyKey: demoKey, query: { reason: 'Bench', documentNumber: `BENCH-${++n}` } }),
      });
      if (response.status !== 200) throw new Error(`add-blacklist-record answered ${response.status}`);
      await response.text();
    },
    list: async () => {
      const response = await fetch(`${url}/list-blacklist-records`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ companyKey: demoKey, query: { offset: 0, limit: 10 } }),
      });
      if (response.status !== 200) throw new Error(`list-blacklist-records answered ${response.status}`);
      await response.text();
    },
  };
}

async function p99(once, { total, concurrency }) {
  const times = [];
  let started = 0;
  const worker = async () => {
    while (started++ < total) {
      const t0 = process.hrtime.bigint();
      await once();
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length * 0.99)];
}

export async function sandboxBench({ rounds = 5, total = 2_000, concurrency = 10 } = {}) {
  const sandbox = await startProcess([sandboxCli, '--port', '0', '--rate-limit', '1000000000']);
  const bare = await startProcess(['-e', bareServer]);
  const prism = await startMocks({ ports: { current: 0, legacy: 0 } });
  const targets = { sandbox: load(sandbox.url), prism: load(prism.urls.current), bare: load(bare.url) };
  const results = {};
  try {
    for (const operation of ['add', 'list']) {
      const figures = await alternate(
        { sandbox: targets.sandbox[operation], prism: targets.prism[operation], bare: targets.bare[operation] },
        { rounds, total, concurrency },
      );
      results[operation] = {
        sandboxRps: median(figures.sandbox),
        prismRps: median(figures.prism),
        bareRps: median(figures.bare),
        vsPrism: median(figures.sandbox.map((rps, i) => rps / figures.prism[i])),
        vsBare: median(figures.sandbox.map((rps, i) => rps / figures.bare[i])),
        p99Ms: await p99(targets.sandbox[operation], { total, concurrency }),
      };
    }
  } finally {
    sandbox.child.kill();
    bare.child.kill();
    await prism.stop();
  }
  return { startupMs: sandbox.startupMs, rounds, total, concurrency, ...results };
}
