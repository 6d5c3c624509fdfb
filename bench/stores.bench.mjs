// The sandbox's three stores side by side in one run (issue 15): add-blacklist-record and
// list-blacklist-records on memory, PGlite (--data) and PostgreSQL (--database: one instance, and two
// instances on the same database), against Prism (quiet) and a bare node:http server, alternating rounds,
// each server in its own process, the load from wrk at 10 connections. Two instances get two wrk processes
// of 5 connections each (a reverse proxy would be one more process on the same 2 cores): their requests per
// second add up, their p99 is the worse of the two. Goals: PGlite >= 2x Prism, PostgreSQL (one instance)
// >= 2x Prism, two instances >= 1.5x one where the machine allows; p99 <= 10 ms; start-up with PGlite <= 1 s.
//
// PostgreSQL is Debian's (scripts/install-postgres.sh), a throwaway cluster in the temp directory with its
// default durability (fsync and synchronous_commit on: a 200 is on disk, as issue 15 asks).
// For PostgreSQL it also says what a request wrote to the write-ahead log and how many flushes it had, of how
// many milliseconds each (track_wal_io_timing on): an add's 200 waits for one, so its rate and p99 follow it.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import postgresClient from 'postgres';
import { startMocks } from '@idv-toolkit/mock';
import { median } from './rounds.mjs';
import { bareServer, startProcess } from './processes.mjs';
import { wrk } from './wrk.mjs';

const require = createRequire(import.meta.url);
const sandboxCli = process.env.SANDBOX_CLI ?? require.resolve('@idv-toolkit/sandbox').replace(/index\.js$/, 'cli.js');
const demoKey = 'ck_test_sandbox_demo_key_0000';
const bodies = {
  add: JSON.stringify({ companyKey: demoKey, query: { reason: 'Bench', documentNumber: 'STORES-%n' } }),
  list: JSON.stringify({ companyKey: demoKey, query: { offset: 0, limit: 10 } }),
};
const paths = { add: '/add-blacklist-record', list: '/list-blacklist-records' };
// STORES_BENCH_TRACE=1 says each step on stderr, with the time it started.
const trace = process.env.STORES_BENCH_TRACE ? (step) => console.error(`${new Date().toISOString()} ${step}`) : () => {};
const common = ['--port', '0', '--quiet', '--rate-limit', '1000000000', '--max-records', '100000000'];


/** SIGTERM, then SIGKILL after 10 s: a bench must end. */
async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(late);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** A throwaway PostgreSQL cluster (as the tests' pg-cluster.test-helper.ts, with default durability). */
async function startPostgres() {
  const root = '/usr/lib/postgresql';
  const major = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))).sort((a, b) => b - a)[0] : undefined;
  if (!major) throw new Error('PostgreSQL is missing: run scripts/install-postgres.sh');
  const bin = join(root, major, 'bin');
  const asRoot = process.getuid?.() === 0;
  const pg = (program, args) => {
    const [command, rest] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    const result = spawnSync(command, rest, { encoding: 'utf8', timeout: 120_000 });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stdout}${result.stderr}`);
  };
  const dir = mkdtempSync(join(tmpdir(), 'idv-bench-pg-'));
  if (asRoot) {
    const id = (flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout);
    chownSync(dir, id('-u'), id('-g'));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale', 'C']);
    // STORES_BENCH_PG_OPTIONS adds server options by hand (e.g. `-c shared_preload_libraries=pg_stat_statements`).
    pg('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(dir, 'server.log'), '-o', `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=100 -c track_wal_io_timing=on ${process.env.STORES_BENCH_PG_OPTIONS ?? ''}`]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pids: () => clusterPids(postmaster),
    stop() {
      spawnSync(asRoot ? 'runuser' : join(bin, 'pg_ctl'), [...(asRoot ? ['-u', 'postgres', '--', join(bin, 'pg_ctl')] : []), 'stop', '-D', data, '-m', 'fast', '-w'], { timeout: 60_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (0 where there is none). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL cluster's processes: its postmaster and the backends it forked. */
function clusterPids(postmaster) {
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === postmaster) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** Whether a cluster process serves a connection (a backend) rather than the server's own work. */
function isBackend(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('127.0.0.1(');
  } catch {
    return false;
  }
}

/**
 * One candidate's round: one wrk over all its URLs' connections, or one wrk per URL at once (two
 * instances); with `pids`, the CPU those processes used per request (`db`: the database's processes,
 * read again at the end, so that one started during the round, an autovacuum worker say, counts; one
 * that started and ended within it is missed). PostgreSQL's CPU is also split: the backends that run the
 * sandboxes' statements, and the rest (checkpointer, WAL writer, autovacuum and the others).
 */
async function round(urls, path, body, { seconds, connections, pids = [], db = () => [], wal }) {
  const share = Math.round(connections / urls.length);
  const walBefore = await wal?.();
  const cpu = (list) => list.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const dbBefore = new Map(db().map((pid) => [pid, cpuMs(pid)]));
  const before = cpu(pids);
  // A server that answers nothing within the round (wrk reads no rate) counts as 0 requests per second.
  const once = (url) => wrk(url + path, body, { seconds, connections: share }).catch((error) => (trace(`${url}: ${error.message.split('\n')[0]}`), { rps: 0, p99Ms: seconds * 1000 }));
  const figures = await Promise.all(urls.map(once));
  const rps = figures.reduce((sum, f) => sum + f.rps, 0);
  const requests = rps * seconds;
  let backends = 0;
  let background = 0;
  for (const pid of new Set([...dbBefore.keys(), ...db()])) {
    const used = cpuMs(pid) - (dbBefore.get(pid) ?? 0);
    if (isBackend(pid)) backends += used;
    else background += used;
  }
  const perRequest = (ms) => (requests ? (ms * 1000) / requests : 0);
  const walAfter = await wal?.();
  const syncs = walAfter ? walAfter.syncs - walBefore.syncs : 0;
  return {
    // What a request wrote to PostgreSQL's write-ahead log, how many flushes (fdatasync) a request had,
    // and how long one took: every 200 of an add waits for one (p99 and add's rate follow it).
    ...(walAfter && {
      walBytes: requests ? (walAfter.bytes - walBefore.bytes) / requests : 0,
      walSyncs: requests ? syncs / requests : 0,
      walSyncMs: syncs ? (walAfter.syncMs - walBefore.syncMs) / syncs : 0,
    }),
    rps,
    p99Ms: Math.max(...figures.map((f) => f.p99Ms)),
    cpuUs: perRequest(cpu(pids) - before),
    dbCpuUs: perRequest(backends + background),
    dbBackendCpuUs: perRequest(backends),
  };
}

// STORES_BENCH_ONLY=pglite,postgresOne,postgresTwo,prism measures those candidates only (by hand).
const only = process.env.STORES_BENCH_ONLY?.split(',');

export async function storesBench({ rounds = 3, seconds = 2, connections = 10, starts = 3 } = {}) {
  const loadAverage = loadavg()[0];
  const started = [];
  const cleanups = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-stores-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  try {
    trace('PostgreSQL cluster');
    const postgres = await startPostgres();
    cleanups.push(() => postgres.stop());
    trace('Prism');
    const prism = await startMocks({ ports: { current: 0, legacy: 0 } });
    cleanups.push(() => prism.stop());
    const start = async (args) => {
      const server = await startProcess(args);
      started.push(server.child);
      return server;
    };
    const pgliteArgs = [sandboxCli, ...common, '--data', join(dataDir, 'pglite')];
    // Start-up with PGlite on a directory that exists (the first start, which creates it, is not counted).
    trace('PGlite start-ups');
    await stopProcess((await start(pgliteArgs)).child);
    const startups = [];
    for (let i = 0; i < starts; i++) {
      const server = await start(pgliteArgs);
      startups.push(server.startupMs);
      await stopProcess(server.child);
    }
    trace('servers');
    const memory = await start([sandboxCli, ...common, '--memory']);
    const pglite = await start(pgliteArgs);
    const pgOne = await start([sandboxCli, ...common, '--database', postgres.url]);
    // The second instance after the first has migrated the database.
    const pgTwo = await start([sandboxCli, ...common, '--database', postgres.url]);
    const bare = await start(['-e', bareServer]);
    const all = {
      memory: [memory.url],
      pglite: [pglite.url],
      postgresOne: [pgOne.url],
      postgresTwo: [pgOne.url, pgTwo.url],
      prism: [prism.urls.current],
      bare: [bare.url],
    };
    const candidates = only ? Object.fromEntries(Object.entries(all).filter(([name]) => only.includes(name))) : all;
    const processes = { memory: [memory], pglite: [pglite], postgresOne: [pgOne], postgresTwo: [pgOne, pgTwo], bare: [bare] };
    const databaseOf = { postgresOne: postgres.pids, postgresTwo: postgres.pids };
    // The cluster's write-ahead log counters (track_wal_io_timing is on): read before and after a round.
    const admin = postgresClient(postgres.url, { max: 1, onnotice: () => {} });
    cleanups.push(() => admin.end({ timeout: 1 }));
    const walOf = { postgresOne: true, postgresTwo: true };
    const wal = async () => {
      const [row] = await admin`select wal_bytes::float8 as bytes, wal_sync::float8 as syncs, wal_sync_time::float8 as sync_ms from pg_stat_wal`;
      return { bytes: row.bytes, syncs: row.syncs, syncMs: row.sync_ms };
    };
    trace(`candidates: ${JSON.stringify(candidates)}`);
    const results = {};
    for (const operation of ['add', 'list']) {
      const figures = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
      trace(`${operation}: warm-up and rounds`);
      // A first request compiles the operation's validator (seconds on a busy machine): answered before wrk's warm-up.
      for (const url of Object.values(candidates).flat()) await fetch(url + paths[operation], { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[operation].replace('%n', 'warm-up') }).then((r) => r.text());
      for (const urls of Object.values(candidates)) await round(urls, paths[operation], bodies[operation], { seconds: 2, connections });
      for (let r = 0; r < rounds; r++) {
        const order = Object.keys(candidates);
        if (r % 2) order.reverse();
        for (const name of order) figures[name].push(await round(candidates[name], paths[operation], bodies[operation], { seconds, connections, pids: (processes[name] ?? []).map((p) => p.child.pid), db: databaseOf[name], wal: walOf[name] && wal }));
      }
      const rps = (name) => figures[name].map((f) => f.rps);
      const ratio = (a, b) => (figures[a] && figures[b] ? median(rps(a).map((value, i) => value / rps(b)[i])) : NaN);
      const each = (pick) => Object.fromEntries(Object.keys(candidates).map((name) => [name, median(figures[name].map(pick))]));
      results[operation] = {
        rps: each((f) => f.rps),
        p99Ms: each((f) => f.p99Ms),
        // CPU per request of the candidate's own processes (Prism's is not measured), and of PostgreSQL's.
        cpuUs: each((f) => f.cpuUs),
        dbCpuUs: each((f) => f.dbCpuUs),
        dbBackendCpuUs: each((f) => f.dbBackendCpuUs),
        walBytes: each((f) => f.walBytes),
        walSyncs: each((f) => f.walSyncs),
        walSyncMs: each((f) => f.walSyncMs),
        memoryVsPrism: ratio('memory', 'prism'),
        memoryVsBare: ratio('memory', 'bare'),
        pgliteVsPrism: ratio('pglite', 'prism'),
        postgresVsPrism: ratio('postgresOne', 'prism'),
        twoVsOne: ratio('postgresTwo', 'postgresOne'),
      };
    }
    return { loadAverage, pgliteStartupMs: median(startups), pgliteStartupRangeMs: [Math.min(...startups), Math.max(...startups)], starts, rounds, seconds, connections, ...results };
  } finally {
    trace('stopping');
    await Promise.all(started.map(stopProcess));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** The lines `npm run bench` prints. */
export function storesReport(figures) {
  const verdict = (ok) => (ok ? 'meets target' : 'MISSES target');
  const lines = [];
  for (const [operation, name] of [['add', 'add-blacklist-record'], ['list', 'list-blacklist-records']]) {
    const f = figures[operation];
    const cpu = (store) =>
      f.cpuUs?.[store] ? `, CPU ${f.cpuUs[store].toFixed(0)} µs/req${f.dbCpuUs[store] ? ` + PostgreSQL ${f.dbCpuUs[store].toFixed(0)} (backends ${f.dbBackendCpuUs[store].toFixed(0)})` : ''}${wal(store)}` : '';
    const wal = (store) => (Number.isFinite(f.walBytes?.[store]) ? `, WAL ${f.walBytes[store].toFixed(0)} B/req, ${f.walSyncs[store].toFixed(2)} flushes/req of ${f.walSyncMs[store].toFixed(2)} ms` : '');
    const each = Object.entries(f.rps)
      .map(([store, rps]) => `${store} ${rps.toFixed(0)} req/s (p99 ${f.p99Ms[store].toFixed(1)} ms${cpu(store)})`)
      .join(', ');
    const worstP99 = Math.max(...['memory', 'pglite', 'postgresOne', 'postgresTwo'].filter((store) => store in f.p99Ms).map((store) => f.p99Ms[store]));
    lines.push(
      `sandbox stores, ${name}: ${each}; PGlite ${f.pgliteVsPrism.toFixed(2)}x Prism (target >= 2): ${verdict(f.pgliteVsPrism >= 2)}; ` +
        `PostgreSQL ${f.postgresVsPrism.toFixed(2)}x Prism (target >= 2): ${verdict(f.postgresVsPrism >= 2)}; ` +
        `two instances ${f.twoVsOne.toFixed(2)}x one (target >= 1.5 where the machine allows): ${verdict(f.twoVsOne >= 1.5)}; ` +
        `memory ${f.memoryVsPrism.toFixed(2)}x Prism, ${(f.memoryVsBare * 100).toFixed(0)} % of bare; ` +
        `worst sandbox p99 ${worstP99.toFixed(1)} ms (target <= 10 ms): ${verdict(worstP99 <= 10)}`,
    );
  }
  lines.push(
    `sandbox start-up with PGlite on an existing directory: ${figures.pgliteStartupMs.toFixed(0)} ms (target <= 1 s): ${verdict(figures.pgliteStartupMs <= 1000)} ` +
      `(median of ${figures.starts}, ${figures.pgliteStartupRangeMs.map((ms) => ms.toFixed(0)).join(' to ')} ms); ` +
      `(medians of ${figures.rounds} alternating rounds of ${figures.seconds} s of wrk, ${figures.connections} connections, load average ${figures.loadAverage.toFixed(2)} at the start)`,
  );
  return lines;
}

// `node bench/stores.bench.mjs` runs this benchmark alone (after a build).
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of storesReport(await storesBench())) console.log(line);
}
