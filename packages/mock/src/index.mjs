// Starts Prism on the bundled current and legacy descriptions, each with the request-target check of
// prism-preload.mjs, replaces a Prism that exits, and stops them all.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCompleteExamples } from './fill-examples.mjs';
import { freePort } from './ports.mjs';

const require = createRequire(import.meta.url);
const prismBin = require.resolve('@stoplight/prism-cli/dist/index.js');
const preload = new URL('./prism-preload.mjs', import.meta.url).href;
export const bundles = {
  current: require.resolve('@idv-toolkit/openapi/current.json'),
  legacy: require.resolve('@idv-toolkit/openapi/legacy.json'),
};
export const defaultPorts = { current: 4010, legacy: 4011 };
const labels = { current: 'current interface', legacy: 'legacy interface' };
// A replacement that fails is tried again this many times, a second apart, before the mock gives up.
const restartAttempts = 3;

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const hasExited = (child) => child.exitCode !== null || child.signalCode !== null;

function stopChild(child) {
  if (!child || hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resolves when `child` sends `{ prism: what }`; rejects if it exits first or time runs out. */
function whenSaid(child, what, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`Prism did not start within ${timeoutMs} ms`)), timeoutMs).unref();
    const onMessage = (message) => message?.prism === what && done();
    const onExit = (code, signal) => done(new Error(`Prism exited with ${code ?? signal} while starting`));
    function done(error) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * The Prism of one interface on host:port, replaced whenever it exits until `stop()`. With `standby`, a
 * standby Prism is kept loaded (not listening), and takes over the port the moment the one serving exits;
 * without, a new Prism is started, which takes 1.5 s on an idle machine and several seconds on a busy one.
 */
function supervise(name, document, { host, port, verbose, timeoutMs, log, standby: useStandby }) {
  let stopping = false;
  let active;
  let standby;
  const children = new Set();

  function launch(asStandby) {
    const child = spawn(
      process.execPath,
      ['--import', preload, prismBin, 'mock', document, '--host', host, '--port', String(port), '--verboseLevel', verbose ? 'info' : 'error'],
      { stdio: ['ignore', verbose ? 'inherit' : 'ignore', 'pipe', 'ipc'], env: { ...process.env, IDV_MOCK_STANDBY: asStandby ? '1' : '' } },
    );
    children.add(child);
    child.once('exit', () => children.delete(child));
    const prism = { child, standby: asStandby, stderrTail: '' };
    child.stderr.on('data', (chunk) => {
      if (verbose) process.stderr.write(chunk);
      prism.stderrTail = (prism.stderrTail + chunk).slice(-4096);
    });
    prism.listening = whenSaid(child, 'listening', asStandby ? 24 * 3600_000 : timeoutMs);
    prism.loaded = asStandby ? whenSaid(child, 'loaded', timeoutMs) : prism.listening;
    prism.listening.catch(() => {});
    prism.loaded.catch(() => {});
    return prism;
  }

  function prepareStandby() {
    if (!useStandby || stopping) return;
    const next = launch(true);
    standby = next;
    next.child.once('exit', () => {
      if (standby !== next || stopping) return;
      standby = undefined;
      setTimeout(prepareStandby, 1_000);
    });
  }

  async function serve(prism) {
    try {
      await prism.listening;
    } catch (error) {
      await stopChild(prism.child);
      throw error;
    }
    active = prism;
    prism.child.once('exit', (code, signal) => replace(prism, code, signal));
  }

  async function replace(exited, code, signal) {
    if (stopping || exited !== active) return;
    const began = performance.now();
    const why = (/^\w*Error: .*$/m.exec(exited.stderrTail)?.[0] ?? (signal ? `signal ${signal}` : `code ${code}`)).slice(0, 200);
    for (let attempt = 1; !stopping; attempt++) {
      const next = standby ?? launch(false);
      standby = undefined;
      try {
        if (next.standby) {
          await next.loaded;
          next.child.send({ prism: 'listen' });
        }
        await serve(next);
        log(`Mock of the ${labels[name]}: Prism exited (${why}); restarted, answering again after ${((performance.now() - began) / 1000).toFixed(1)} s`);
        prepareStandby();
        return;
      } catch (error) {
        await stopChild(next.child);
        if (stopping) return;
        if (attempt >= restartAttempts) return log(`Mock of the ${labels[name]}: Prism exited (${why}) and could not be restarted: ${error.message}`);
        await delay(1_000);
      }
    }
  }

  return {
    async start() {
      await serve(launch(false));
      prepareStandby();
    },
    pid: () => active?.child.pid,
    /** Resolves once a standby is loaded (at once without `standby`). */
    async standbyReady() {
      while (useStandby && !stopping && !(await standby?.loaded.then(() => true, () => false))) await delay(100);
    },
    async stop() {
      stopping = true;
      await Promise.all([...children].map(stopChild));
    },
  };
}

/**
 * Starts one Prism per interface on `host` (127.0.0.1 unless told otherwise); each answers a malformed
 * request target with 400 (prism-preload.mjs). A port of 0, or a port that is taken, gets a free port. A
 * Prism that exits is replaced, and `log` (console.log by default) gets one line about it; `standby` keeps a
 * standby Prism per interface loaded for that. Returns the URLs and a `stop()` that ends everything.
 */
export async function startMocks({ host = '127.0.0.1', ports = defaultPorts, verbose = false, timeoutMs = 30_000, log = console.log, standby = false } = {}) {
  const supervisors = [];
  // What Prism serves: the bundles with their response examples completed (fill-examples.mjs).
  const served = mkdtempSync(join(tmpdir(), 'idv-mock-'));
  const stop = async () => {
    await Promise.all(supervisors.map((s) => s.stop()));
    rmSync(served, { recursive: true, force: true });
  };
  try {
    const urls = {};
    const names = Object.keys(bundles);
    for (const name of names) {
      const document = join(served, `${name}.json`);
      writeFileSync(document, JSON.stringify(withCompleteExamples(JSON.parse(readFileSync(bundles[name], 'utf8')))));
      const port = await freePort(host, ports[name] ?? 0);
      supervisors.push(supervise(name, document, { host, port, verbose, timeoutMs, log, standby }));
      urls[name] = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    }
    await Promise.all(supervisors.map((s) => s.start()));
    return {
      urls,
      stop,
      prismPids: () => Object.fromEntries(names.map((name, i) => [name, supervisors[i].pid()])),
      standbysReady: () => Promise.all(supervisors.map((s) => s.standbyReady())).then(() => undefined),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
