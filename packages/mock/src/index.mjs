// Starts Prism on the bundled current and legacy descriptions, each behind a guard on the public port
// (guard.mjs), restarts a Prism that exits, and stops them all.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCompleteExamples } from './fill-examples.mjs';
import { createGuard } from './guard.mjs';
import { freePort } from './ports.mjs';

const require = createRequire(import.meta.url);
const prismBin = require.resolve('@stoplight/prism-cli/dist/index.js');
export const bundles = {
  current: require.resolve('@idv-toolkit/openapi/current.json'),
  legacy: require.resolve('@idv-toolkit/openapi/legacy.json'),
};
export const defaultPorts = { current: 4010, legacy: 4011 };
const labels = { current: 'current interface', legacy: 'legacy interface' };
// A restart that fails is tried again this many times, a second apart, before the mock gives up on it.
const restartAttempts = 3;

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once something accepts connections on port, rejects if `child` exits first or time runs out. */
async function waitUntilListening(port, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`Prism exited with ${child.exitCode ?? child.signalCode} while starting`);
    const accepted = await new Promise((resolve) => {
      const probe = connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (accepted) return;
    await delay(25);
  }
  throw new Error(`Prism did not start within ${timeoutMs} ms`);
}

function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * One Prism on an internal port of 127.0.0.1, replaced whenever it exits until `stop()`. With `spare`, a
 * second Prism is kept started in advance, so the replacement answers at once instead of after Prism's
 * start (1.5 s on an idle machine, several seconds on a busy one).
 */
function supervise(name, document, { verbose, timeoutMs, log, spare: useSpare }) {
  let stopping = false;
  let active;
  let spare;
  let ready;
  const children = new Set();

  async function launch() {
    const port = await freePort('127.0.0.1', 0);
    if (stopping) throw new Error('stopped');
    const child = spawn(
      process.execPath,
      [prismBin, 'mock', document, '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', verbose ? 'info' : 'error'],
      { stdio: ['ignore', verbose ? 'inherit' : 'ignore', 'pipe'] },
    );
    children.add(child);
    child.once('exit', () => children.delete(child));
    const prism = { child, port, stderrTail: '' };
    child.stderr.on('data', (chunk) => {
      if (verbose) process.stderr.write(chunk);
      prism.stderrTail = (prism.stderrTail + chunk).slice(-4096);
    });
    try {
      await waitUntilListening(port, child, timeoutMs);
    } catch (error) {
      await stopChild(child);
      throw error;
    }
    return prism;
  }

  function prepareSpare() {
    if (!useSpare || stopping) return;
    const next = launch();
    spare = next;
    next.then(
      (prism) =>
        prism.child.once('exit', () => {
          if (spare !== next || stopping) return;
          spare = undefined;
          setTimeout(prepareSpare, 1_000);
        }),
      () => {
        if (spare === next) spare = undefined;
      },
    );
  }

  function activate(prism) {
    active = prism;
    prism.child.once('exit', (code, signal) => replace(prism, code, signal));
  }

  function replace(exited, code, signal) {
    if (stopping || exited !== active) return;
    const began = performance.now();
    const why = (/^\w*Error: .*$/m.exec(exited.stderrTail)?.[0] ?? (signal ? `signal ${signal}` : `code ${code}`)).slice(0, 200);
    ready = (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const waiting = spare;
          spare = undefined;
          let next = waiting ? await waiting.catch(() => undefined) : undefined;
          if (!next || next.child.exitCode !== null || next.child.signalCode !== null) next = await launch();
          if (stopping) throw new Error('stopped');
          activate(next);
          log(`Mock of the ${labels[name]}: Prism exited (${why}); restarted, answering again after ${((performance.now() - began) / 1000).toFixed(1)} s`);
          prepareSpare();
          return next.port;
        } catch (error) {
          if (stopping) throw error;
          if (attempt >= restartAttempts) {
            log(`Mock of the ${labels[name]}: Prism exited (${why}) and could not be restarted: ${error.message}`);
            throw error;
          }
          await delay(1_000);
        }
      }
    })();
    ready.catch(() => {});
  }

  return {
    start() {
      ready = launch().then((prism) => {
        activate(prism);
        prepareSpare();
        return prism.port;
      });
      return ready;
    },
    /** Prism's port once it answers, waiting through a restart. */
    upstream: () => ready,
    pid: () => active?.child.pid,
    /** Resolves once a spare is answering (at once without `spare`). */
    spareReady: async () => {
      while (useSpare && !stopping && !(await spare?.then(() => true, () => false))) await delay(100);
    },
    async stop() {
      stopping = true;
      await Promise.all([...children].map(stopChild));
    },
  };
}

function listen(server, host, preferred) {
  return new Promise((resolve, reject) => {
    const attempt = (port) => {
      server.once('error', (error) => {
        if (error.code === 'EADDRINUSE' && port !== 0) attempt(0);
        else reject(error);
      });
      server.listen(port, host, () => resolve(server.address().port));
    };
    attempt(preferred);
  });
}

function close(server) {
  if (!server.listening) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Starts one Prism per interface, each behind a guard on `host` (127.0.0.1 unless told otherwise). A port
 * of 0, or a port that is taken, gets a free port. A Prism that exits is restarted, and `log` (console.log
 * by default) gets one line about it; `spare` keeps a second Prism per interface ready for that. Returns
 * the URLs and a `stop()` that ends everything.
 */
export async function startMocks({ host = '127.0.0.1', ports = defaultPorts, verbose = false, timeoutMs = 30_000, log = console.log, spare = false } = {}) {
  const supervisors = [];
  const guards = [];
  // What Prism serves: the bundles with their response examples completed (fill-examples.mjs).
  const served = mkdtempSync(join(tmpdir(), 'idv-mock-'));
  const stop = async () => {
    await Promise.all(guards.map(close));
    await Promise.all(supervisors.map((s) => s.stop()));
    rmSync(served, { recursive: true, force: true });
  };
  try {
    const urls = {};
    const starting = [];
    for (const name of Object.keys(bundles)) {
      const document = join(served, `${name}.json`);
      writeFileSync(document, JSON.stringify(withCompleteExamples(JSON.parse(readFileSync(bundles[name], 'utf8')))));
      const prism = supervise(name, document, { verbose, timeoutMs, log, spare });
      supervisors.push(prism);
      const start = prism.start();
      start.catch(() => {}); // awaited below, with the other one
      starting.push(start);
      const guard = createGuard({ upstream: prism.upstream });
      guards.push(guard);
      const port = await listen(guard, host, ports[name] ?? 0);
      urls[name] = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    }
    await Promise.all(starting);
    const names = Object.keys(bundles);
    return {
      urls,
      stop,
      prismPids: () => Object.fromEntries(names.map((name, i) => [name, supervisors[i].pid()])),
      sparesReady: () => Promise.all(supervisors.map((s) => s.spareReady())).then(() => undefined),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
