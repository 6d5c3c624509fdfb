// By hand: the sandbox's own CPU per request, without the kernel, wrk or other processes: its server is
// driven in this process through in-memory connections (a Duplex per connection that the HTTP server
// reads requests from and writes answers into), 10 requests in flight, and the process's CPU time is
// divided by the requests. A bare node:http handler is measured the same way, in alternating rounds.
// On a loaded machine this still measures CPU, not the wait for a core; what it leaves out (the sockets'
// system calls) the bare server pays too. Request log on, as the bench runs it (lines to a writer that
// drops them, batched as the command line batches them).
//
// Several builds can be compared in one process (each its own module instances), round by round.
//
//   node bench/sandbox-inprocess.mjs [requests per round] [rounds]
//   SANDBOX_DISTS="before=/path/to/old/dist,after=packages/sandbox/dist" OPERATIONS=add node bench/sandbox-inprocess.mjs
//   PROFILE=out.cpuprofile node bench/sandbox-inprocess.mjs   (a V8 profile of the measured rounds, per operation)
//   HEAP=1 PROFILE=out node bench/sandbox-inprocess.mjs       (a sampled allocation profile instead, garbage included)
//   KEPT=1 node --expose-gc bench/sandbox-inprocess.mjs        (also the heap each round leaves behind, per request)
import { createServer } from 'node:http';
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { median } from './rounds.mjs';

const perRound = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 5);
const inFlight = 10;
const dists = Object.fromEntries((process.env.SANDBOX_DISTS ?? 'sandbox=packages/sandbox/dist').split(',').map((pair) => pair.split('=')));
const demoKey = 'ck_test_sandbox_demo_key_0000';

let counter = 0;
const requests = {
  add: () => `{"companyKey":"${demoKey}","query":{"reason":"Bench","documentNumber":"BENCH-${++counter}"}}`,
  list: () => `{"companyKey":"${demoKey}","query":{"offset":0,"limit":10}}`,
};
const paths = { add: '/add-blacklist-record', list: '/list-blacklist-records' };
const raw = (path, body) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** A connection of `server`: requests go in with `send`, `onAnswer` is called once per whole answer. */
function connect(server, onAnswer) {
  let pending = '';
  const socket = new Duplex({
    read() {},
    write(chunk, encoding, callback) {
      pending += chunk.toString('latin1');
      // Answers have a content-length: count the complete ones.
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) break;
        const length = Number(/content-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) break;
        if (!pending.startsWith('HTTP/1.1 200')) throw new Error(`not 200: ${pending.slice(0, end + 4 + length)}`);
        pending = pending.slice(end + 4 + length);
        onAnswer();
      }
      callback();
    },
  });
  socket.remoteAddress = '127.0.0.1';
  socket.setTimeout = () => socket;
  socket.setNoDelay = () => socket;
  socket.setKeepAlive = () => socket;
  server.emit('connection', socket);
  return { send: (text) => socket.push(text) };
}

/** `total` requests, `inFlight` connections each with one request at a time; resolves to CPU µs per request. */
function drive(server, path, body, total) {
  return new Promise((done) => {
    let sent = 0;
    let answered = 0;
    const start = process.cpuUsage();
    for (let c = 0; c < inFlight; c++) {
      const connection = connect(server, () => {
        answered++;
        if (answered === total) {
          const used = process.cpuUsage(start);
          done((used.user + used.system) / total);
        } else if (sent < total) {
          sent++;
          connection.send(raw(path, body()));
        }
      });
      sent++;
      connection.send(raw(path, body()));
    }
  });
}

const fixed = JSON.stringify({ result: '64f0c1d2e3a4b5c6d7e8f901' });
const bare = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(fixed) });
    res.end(fixed);
  });
});
const servers = { bare };
const sandboxes = [];
for (const [name, dist] of Object.entries(dists)) {
  const { createSandbox } = await import(pathToFileURL(`${resolve(dist)}/server.js`).href); // a name ending in -nolog: request log off
  const { batchedLines } = await import(pathToFileURL(`${resolve(dist)}/request-log.js`).href);
  const sandbox = createSandbox({ rateLimit: 1_000_000_000, limits: { maxRecordsPerCompany: 100_000_000 }, log: process.env.NO_LOG || name.endsWith('-nolog') ? undefined : batchedLines(() => {}) });
  await sandbox.listen(0);
  sandboxes.push(sandbox);
  servers[name] = sandbox.server;
}
const names = Object.keys(servers);

const session = process.env.PROFILE ? new Session() : undefined;
const post = (method, params) => new Promise((ok, fail) => session.post(method, params, (error, result) => (error ? fail(error) : ok(result))));
for (const operation of (process.env.OPERATIONS ?? 'add,list').split(',')) {
  const figures = Object.fromEntries(names.map((name) => [name, []]));
  // Warm-up: every function compiled and optimised, the store as large as a bench round leaves it.
  for (const name of names) {
    if (name !== 'bare') await drive(servers[name], paths.add, requests.add, perRound);
    await drive(servers[name], paths[operation], requests[operation], perRound);
  }
  if (session) {
    session.connect();
    if (process.env.HEAP) {
      // Every allocation sampled, the collected ones too: where the garbage comes from.
      await post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    } else {
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 50 });
      await post('Profiler.start');
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) {
      // ALLOCATIONS=1 with `node --expose-gc --trace-gc-nvp`: a full collection either side of each round, so
      // that the `allocated=` of V8's lines between them add up to what the round allocated (bytes do not
      // depend on the machine's load as time does). bench/allocations.mjs reads them.
      if (process.env.ALLOCATIONS) gc(), console.log(`round-start ${operation} ${name} ${perRound}`), gc();
      // KEPT=1 with `node --expose-gc`: the heap a round leaves behind, per request (what add keeps of each
      // stored record: the store's objects and map entries; the request ring's share is bounded and already full).
      const keptBefore = process.env.KEPT ? (gc(), gc(), process.memoryUsage().heapUsed) : 0;
      figures[name].push(await drive(servers[name], paths[operation], requests[operation], perRound));
      if (process.env.KEPT) gc(), gc(), console.log(`${operation} ${name}: ${((process.memoryUsage().heapUsed - keptBefore) / perRound).toFixed(0)} bytes kept per request`);
      if (process.env.ALLOCATIONS) gc(), console.log('round-end');
    }
  }
  if (session) {
    const { profile } = await post(process.env.HEAP ? 'HeapProfiler.stopSampling' : 'Profiler.stop');
    writeFileSync(process.env.PROFILE.replace(/(\.cpuprofile|\.heapprofile)?$/, `-${operation}.${process.env.HEAP ? 'heapprofile' : 'cpuprofile'}`), JSON.stringify(profile));
    session.disconnect();
  }
  const b = median(figures.bare);
  console.log(`${operation}: bare ${b.toFixed(1)} µs CPU per request (least ${Math.min(...figures.bare).toFixed(1)})`);
  for (const name of names.filter((n) => n !== 'bare')) {
    const s = median(figures[name]);
    console.log(`  ${name}: ${s.toFixed(1)} µs (least ${Math.min(...figures[name]).toFixed(1)}; rounds ${figures[name].map((f) => f.toFixed(1)).join(', ')}); bare/this ${((100 * b) / s).toFixed(0)} %`);
  }
}
for (const sandbox of sandboxes) await sandbox.close();
