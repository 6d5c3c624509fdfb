// By hand: CPU per request and the share of bare node:http's rate, for one or more builds of the sandbox's
// command line, measured side by side in alternating rounds of one run (the figures issue 14 asks for, with
// the request log on as `npm run bench` runs it). On a machine that other jobs load, the CPU time a server
// spends per request says more than its rate; the rate against bare's in the same round is the bench's figure.
//
//   node bench/sandbox-cpu.mjs [rounds] [seconds]
//   SANDBOX_CLIS="before=/path/to/old/dist/cli.js,after=packages/sandbox/dist/cli.js" node bench/sandbox-cpu.mjs 6 2
//   OPERATIONS=add node bench/sandbox-cpu.mjs
//   SANDBOX_CLIS="plain=dist/cli.js,semi=dist/cli.js" SANDBOX_FLAGS="semi=--max-semi-space-size=32" node bench/sandbox-cpu.mjs
//   (SANDBOX_FLAGS: Node's own flags for one build's process, space-separated, to compare V8 settings)
//   SIDE_BY_SIDE=1 SANDBOX_CLIS="before=…,after=…" node bench/sandbox-cpu.mjs 10 3   (the builds loaded at the same time)
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

const nodeFlags = Object.fromEntries(
  (process.env.SANDBOX_FLAGS ?? '').split(',').filter(Boolean).map((pair) => {
    const at = pair.indexOf('=');
    return [pair.slice(0, at), pair.slice(at + 1).split(' ').filter(Boolean)];
  }),
);

// As the bench starts it: memory store, request log on (no --quiet), limits lifted for the run.
const servers = { bare: await startProcess(['-e', bareServer]) };
for (const [name, cli] of Object.entries(clis)) {
  servers[name] = await startProcess([...(nodeFlags[name] ?? []), cli, '--memory', '--port', '0', '--rate-limit', '1000000000', '--max-records', '100000000']);
}
const names = Object.keys(servers);
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ${rounds} rounds of ${seconds} s, ${connections} connections; ${names.join(', ')}`);
try {
  for (const operation of operations) {
    const figures = Object.fromEntries(names.map((name) => [name, []]));
    for (const name of names) await wrk(servers[name].url + paths[operation], bodies[operation], { seconds: 1, connections });
    /** Runs wrk against each of `group` at the same time, and notes each one's figures. */
    const measure = async (group) => {
      const before = group.map((name) => cpuMs(servers[name].child.pid));
      const results = await Promise.all(group.map((name) => wrk(servers[name].url + paths[operation], bodies[operation], { seconds, connections })));
      group.forEach((name, at) => {
        const after = cpuMs(servers[name].child.pid);
        const { rps, p99Ms } = results[at];
        figures[name].push({ rps, p99Ms, cpuUs: ((after.total - before[at].total) * 1000) / (rps * seconds), systemUs: ((after.system - before[at].system) * 1000) / (rps * seconds) });
      });
    };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...names].reverse() : names;
      // SIDE_BY_SIDE=1: the builds under load at the same time (each its own wrk), so that the machine's
      // swings hit them alike; bare alone before or after them. Their rates then share the cores: read CPU.
      if (process.env.SIDE_BY_SIDE) {
        const builds = order.filter((name) => name !== 'bare');
        if (round % 2) await measure(builds), await measure(['bare']);
        else await measure(['bare']), await measure(builds);
      } else for (const name of order) await measure([name]);
    }
    console.log(`\n${operation} (load ${loadavg()[0].toFixed(1)})`);
    for (const name of names) {
      const f = figures[name];
      const vsBare = name === 'bare' ? '' : `; of bare, median of rounds ${(100 * median(f.map((x, i) => x.rps / figures.bare[i].rps))).toFixed(0)} %, CPU bare/this ${(100 * median(figures.bare.map((x) => x.cpuUs)) / median(f.map((x) => x.cpuUs))).toFixed(0)} %`;
      console.log(
        `  ${name.padEnd(8)} ${median(f.map((x) => x.rps)).toFixed(0)} req/s; CPU µs/request least ${Math.min(...f.map((x) => x.cpuUs)).toFixed(1)}, median ${median(f.map((x) => x.cpuUs)).toFixed(1)} (system ${median(f.map((x) => x.systemUs)).toFixed(0)}); p99 ${median(f.map((x) => x.p99Ms)).toFixed(2)} ms${vsBare}`,
      );
    }
    // Builds measured in the same round ran seconds apart: their difference round by round shows through
    // the load's swings better than each one's own median does.
    const [first, ...others] = names.filter((name) => name !== 'bare');
    for (const name of others) {
      const differences = figures[name].map((x, i) => x.cpuUs - figures[first][i].cpuUs);
      const ratios = figures[name].map((x, i) => x.rps / figures.bare[i].rps / (figures[first][i].rps / figures.bare[i].rps));
      console.log(
        `  ${name} - ${first}: CPU µs/request, median of the rounds' differences ${median(differences).toFixed(1)} (rounds ${differences.map((d) => d.toFixed(1)).join(', ')}); share of bare's rate, median ratio ${median(ratios).toFixed(3)}`,
      );
    }
  }
} finally {
  for (const server of Object.values(servers)) server.child.kill();
}
