// By hand: CPU per request and the share of bare node:http's rate, for one or more builds of the sandbox's
// command line, measured side by side in alternating rounds of one run (the figures issue 14 asks for, with
// the request log on as `npm run bench` runs it). On a machine that other jobs load, the CPU time a server
// spends per request says more than its rate; the rate against bare's in the same round is the bench's figure.
//
//   node bench/sandbox-cpu.mjs [rounds] [seconds]
//   SANDBOX_CLIS="before=/path/to/old/dist/cli.js,after=packages/sandbox/dist/cli.js" node bench/sandbox-cpu.mjs 6 2
//   OPERATIONS=add node bench/sandbox-cpu.mjs
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { median } from './rounds.mjs';
import { bareServer, startProcess } from './processes.mjs';
import { wrk } from './wrk.mjs';

const rounds = Number(process.argv[2] ?? 6);
const seconds = Number(process.argv[3] ?? 2);
const connections = 10;
const demoKey = 'ck_test_sandbox_demo_key_0000';
const bodies = {
  add: JSON.stringify({ companyKey: demoKey, query: { reason: 'Bench', documentNumber: 'BENCH-%n' } }),
  list: JSON.stringify({ companyKey: demoKey, query: { offset: 0, limit: 10 } }),
};
const paths = { add: '/add-blacklist-record', list: '/list-blacklist-records' };
const operations = (process.env.OPERATIONS ?? 'add,list').split(',');
const clis = Object.fromEntries(
  (process.env.SANDBOX_CLIS ?? 'sandbox=packages/sandbox/dist/cli.js').split(',').map((pair) => {
    const [name, path] = pair.split('=');
    return [name, resolve(path)];
  }),
);

/** utime + stime of a process in ms, from /proc (clock ticks of 1/100 s), and stime alone. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { total: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100, system: (Number(fields[12]) * 1000) / 100 };
}

// As the bench starts it: memory store, request log on (no --quiet), limits lifted for the run.
const servers = { bare: await startProcess(['-e', bareServer]) };
for (const [name, cli] of Object.entries(clis)) {
  servers[name] = await startProcess([cli, '--memory', '--port', '0', '--rate-limit', '1000000000', '--max-records', '100000000']);
}
const names = Object.keys(servers);
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ${rounds} rounds of ${seconds} s, ${connections} connections; ${names.join(', ')}`);
try {
  for (const operation of operations) {
    const figures = Object.fromEntries(names.map((name) => [name, []]));
    for (const name of names) await wrk(servers[name].url + paths[operation], bodies[operation], { seconds: 1, connections });
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...names].reverse() : names;
      for (const name of order) {
        const pid = servers[name].child.pid;
        const before = cpuMs(pid);
        const { rps, p99Ms } = await wrk(servers[name].url + paths[operation], bodies[operation], { seconds, connections });
        const after = cpuMs(pid);
        figures[name].push({ rps, p99Ms, cpuUs: ((after.total - before.total) * 1000) / (rps * seconds), systemUs: ((after.system - before.system) * 1000) / (rps * seconds) });
      }
    }
    console.log(`\n${operation} (load ${loadavg()[0].toFixed(1)})`);
    for (const name of names) {
      const f = figures[name];
      const vsBare = name === 'bare' ? '' : `; of bare, median of rounds ${(100 * median(f.map((x, i) => x.rps / figures.bare[i].rps))).toFixed(0)} %, CPU bare/this ${(100 * median(figures.bare.map((x) => x.cpuUs)) / median(f.map((x) => x.cpuUs))).toFixed(0)} %`;
      console.log(
        `  ${name.padEnd(8)} ${median(f.map((x) => x.rps)).toFixed(0)} req/s; CPU µs/request least ${Math.min(...f.map((x) => x.cpuUs)).toFixed(0)}, median ${median(f.map((x) => x.cpuUs)).toFixed(0)} (system ${median(f.map((x) => x.systemUs)).toFixed(0)}); p99 ${median(f.map((x) => x.p99Ms)).toFixed(2)} ms${vsBare}`,
      );
    }
  }
} finally {
  for (const server of Object.values(servers)) server.child.kill();
}
