// Starts Prism on the bundled current and legacy descriptions, each with the request-target check of
// prism-preload.mjs, replaces a Prism that exits, swaps in a Prism of new bundles with no downtime, and
// stops them all.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCompleteExamples } from './fill-examples.mjs';
import { listeningSocket } from './ports.mjs';

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
// How long a reload waits for the new Prism: the old one answers meanwhile, so it may take its time (on a
// machine at load 15 with two cores, Prism took 13 to 25 s to start).
const swapTimeoutMs = 120_000;

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

/** Resolves when `child` sends `{ prism: what }` (of its server number `server`, if given); rejects if it exits first or time runs out. */
function whenSaid(child, what, timeoutMs, server) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`Prism did not start within ${timeoutMs} ms`)), timeoutMs).unref();
    const onMessage = (message) => message?.prism === what && (server === undefined || message.server === server) && done();
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
function supervise(name, document, { socket, host, port, verbose, timeoutMs, log, standby: useStandby, warm: useWarm }) {
  let stopping = false;
  let active;
  let standby;
  // With `warm`: a Prism with its modules loaded, waiting for a document: for a reload the serving Prism
  // cannot read in place, or to replace one that exits.
  let warm;
  let asks = 0;
  const children = new Set();

  /** A Prism on `document`; `asWarm`: one that loads its modules and waits for a document (serveDocument). */
  function launch(asStandby, startTimeoutMs = timeoutMs, asWarm = false) {
    const child = spawn(
      process.execPath,
      ['--import', preload, prismBin, 'mock', asWarm ? '(given when told)' : document, '--host', host, '--port', String(port), '--verboseLevel', verbose ? 'info' : 'error'],
      { stdio: ['ignore', verbose ? 'inherit' : 'ignore', 'pipe', 'ipc'], env: asWarm ? { ...process.env, IDV_MOCK_WARM: '1' } : process.env },
    );
    children.add(child);
    child.once('exit', () => children.delete(child));
    const prism = { child, standby: asStandby, stderrTail: '' };
    child.stderr.on('data', (chunk) => {
      if (verbose) process.stderr.write(chunk);
      prism.stderrTail = (prism.stderrTail + chunk).slice(-4096);
    });
    prism.begin = (timeout) => {
      prism.loaded = whenSaid(child, 'loaded', timeout);
      prism.listening = whenSaid(child, 'listening', asStandby ? 24 * 3600_000 : timeout);
      prism.listening.catch(() => {});
      // A held Prism (prepared ahead of a reload) listens once swap() releases it.
      prism.loaded.then(() => {
        prism.isLoaded = true;
        if (!asStandby && !prism.held) listenOn(prism);
      }, () => {});
    };
    if (asWarm) {
      prism.warmed = whenSaid(child, 'warm', 24 * 3600_000);
      prism.warmed.catch(() => {});
    } else prism.begin(startTimeoutMs);
    return prism;
  }

  function prepareWarm() {
    if (!useWarm || stopping || warm) return;
    const next = launch(false, timeoutMs, true);
    warm = next;
    next.child.once('exit', () => {
      if (warm !== next || stopping) return;
      warm = undefined;
      setTimeout(prepareWarm, 1_000);
    });
  }

  /**
   * The warm Prism told to serve `path`, if there is one whose modules have loaded (it then takes the
   * document's part of a start alone: about a fifth of it); else undefined.
   */
  async function serveWarm(path, startTimeoutMs, held = false) {
    const prism = warm;
    warm = undefined;
    // One still loading is waited for (it is ahead of a new one), as long as a start may take.
    const late = new Promise((resolve) => setTimeout(resolve, startTimeoutMs, false).unref());
    if (!prism || !(await Promise.race([prism.warmed.then(() => true, () => false), late])) || hasExited(prism.child)) {
      if (prism) await stopChild(prism.child);
      return undefined;
    }
    prism.held = held;
    prism.begin(startTimeoutMs);
    prism.child.send({ prism: 'document', path });
    return prism;
  }

  /**
   * With `warm`: the serving Prism told to read `path` in place, making a second server of it beside the
   * one serving, held from the port until swap() (prism-preload.mjs); undefined if none is serving. Its
   * `loaded` resolves to the new server's number once made, or rejects (the document could not be read).
   */
  function prepareInPlace(path) {
    const prism = active;
    if (!prism || hasExited(prism.child)) return undefined;
    const ask = ++asks;
    const held = { inPlace: true, prism, path };
    held.loaded = new Promise((resolve, reject) => {
      const limit = Math.max(timeoutMs, swapTimeoutMs);
      const timer = setTimeout(() => done(new Error(`Prism did not read the new document within ${limit} ms`)), limit).unref();
      const onMessage = (message) => {
        if (message?.ask !== ask) return;
        if (message.prism === 'loaded') done(undefined, message.server);
        else if (message.prism === 'failed') done(new Error(`Prism could not read the new document: ${message.error}`));
      };
      const onExit = (code, signal) => done(new Error(`Prism exited with ${code ?? signal} while reading the new document`));
      function done(error, server) {
        clearTimeout(timer);
        prism.child.off('message', onMessage);
        prism.child.off('exit', onExit);
        if (error) reject(error);
        else resolve(server);
      }
      prism.child.on('message', onMessage);
      prism.child.once('exit', onExit);
    });
    held.loaded.catch(() => {});
    prism.child.send({ prism: 'document', inPlace: true, path, ask });
    return held;
  }

  /** Has the Prism that made `held` (prepareInPlace) serve its new server, and retire the one it served with. */
  async function swapInPlace(held, startTimeoutMs) {
    const server = await held.loaded;
    const { prism } = held;
    const listening = whenSaid(prism.child, 'listening', startTimeoutMs, server);
    prism.child.send({ prism: 'listen', server }, socket);
    await listening;
    const old = prism.server ?? 1;
    prism.server = server;
    prism.child.send({ prism: 'retire', server: old });
  }

  /** Has `prism` accept on the port's socket, which this process holds open for as long as the mock runs. */
  function listenOn(prism) {
    if (!hasExited(prism.child)) prism.child.send({ prism: 'listen' }, socket);
  }

  /** Stops `prism` accepting; it answers what it has and then ends (killed if it takes too long). */
  function drain(prism) {
    if (hasExited(prism.child)) return Promise.resolve();
    return new Promise((resolve) => {
      const force = setTimeout(() => stopChild(prism.child).then(resolve), 15_000);
      prism.child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      prism.child.send({ prism: 'drain' });
    });
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
      const next = standby ?? (useWarm ? await serveWarm(document, timeoutMs) : undefined) ?? launch(false);
      standby = undefined;
      try {
        if (next.standby) {
          await next.loaded;
          listenOn(next);
        }
        await serve(next);
        log(`Mock of the ${labels[name]}: Prism exited (${why}); restarted, answering again after ${((performance.now() - began) / 1000).toFixed(1)} s`);
        prepareStandby();
        prepareWarm();
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
      prepareWarm();
    },
    /**
     * The serving Prism told to read `path` in place now (else the warm Prism told to load it), held from
     * the port until `swap(path, it)`, so that its reading overlaps what comes before the swap (dev's lint);
     * undefined without `warm`.
     */
    prepare: async (path) => (useWarm ? (prepareInPlace(path) ?? (await serveWarm(path, Math.max(timeoutMs, swapTimeoutMs), true))) : undefined),
    /** Drops a prepared server or Prism that will not be swapped in. */
    cancel(prism) {
      if (prism.inPlace) {
        prism.loaded.then((server) => hasExited(prism.prism.child) || prism.prism.child.send({ prism: 'retire', server }), () => {});
        return;
      }
      void stopChild(prism.child);
      prepareWarm();
    },
    pid: () => active?.child.pid,
    warmPid: () => warm?.child.pid,
    /**
     * With `warm`: the serving Prism reads the document `next` in place (or `prepared` did), beside the
     * server that answers meanwhile, then serves it. Else, or if there is no Prism serving: starts a Prism
     * on `next` (the warm one if ready) and, once it accepts, drains the one serving. The port answers
     * throughout. A document that cannot be read, or a Prism that fails to start, leaves the serving one in
     * place, and rejects. (A new file, not the old one rewritten: Prism watches its file, and restarts
     * itself, closing its server first, when it changes.)
     */
    async swap(next, prepared) {
      const old = active;
      const previous = document;
      document = next;
      const startTimeoutMs = Math.max(timeoutMs, swapTimeoutMs);
      if (!prepared && useWarm) prepared = prepareInPlace(next);
      if (prepared?.inPlace) {
        if (prepared.prism === active && !hasExited(active.child)) {
          try {
            return await swapInPlace(prepared, startTimeoutMs);
          } catch (error) {
            document = previous;
            throw error;
          }
        }
        // The Prism that read it has exited since: a Prism is started on the document instead.
        this.cancel(prepared);
        prepared = undefined;
      }
      try {
        if (prepared) {
          prepared.held = false;
          if (prepared.isLoaded) listenOn(prepared);
        }
        await serve(prepared ?? (await serveWarm(next, startTimeoutMs)) ?? launch(false, startTimeoutMs));
      } catch (error) {
        document = previous;
        prepareWarm();
        throw error;
      }
      const oldStandby = standby;
      standby = undefined;
      await Promise.all([old && drain(old), stopChild(oldStandby?.child)]);
      prepareStandby();
      prepareWarm();
    },
    /** Resolves once a standby is loaded (at once without `standby`). */
    async standbyReady() {
      while (useStandby && !stopping && !(await standby?.loaded.then(() => true, () => false))) await delay(100);
    },
    /** Resolves once the warm Prism has loaded its modules (at once without `warm`). */
    async warmReady() {
      while (useWarm && !stopping && !(await warm?.warmed.then(() => true, () => false))) await delay(100);
    },
    async stop() {
      stopping = true;
      await Promise.all([...children].map(stopChild));
      socket.close();
    },
  };
}

/**
 * Starts one Prism per interface on `host` (127.0.0.1 unless told otherwise); each answers a malformed
 * request target with 400 (prism-preload.mjs). A port of 0, or a port that is taken, gets a free port. A
 * Prism that exits is replaced, and `log` (console.log by default) gets one line about it; `standby` keeps a
 * standby Prism per interface loaded for that. `bundles` names other bundle files, by interface: only
 * the interfaces it names are mocked (the package's two by default). Returns the
 * URLs, a `reload()` that swaps in Prisms of the bundles as they are now without refusing a connection, and
 * a `stop()` that ends everything.
 */
export async function startMocks({ host = '127.0.0.1', ports = defaultPorts, verbose = false, timeoutMs = 30_000, log = console.log, standby = false, warm = false, bundles: from = bundles } = {}) {
  const supervisors = [];
  // What Prism serves: the bundles with their response examples completed (fill-examples.mjs).
  const served = mkdtempSync(join(tmpdir(), 'idv-mock-'));
  const stop = async () => {
    await Promise.all(supervisors.map((s) => s.stop()));
    rmSync(served, { recursive: true, force: true });
  };
  // The interfaces of the bundles given: a test or tool may mock one alone.
  const names = Object.keys(from);
  let generation = 0;
  // The bundle each interface's Prism serves: a reload starts Prisms only for the bundles that changed
  // (a Prism's start is the reload's cost, and the two would share the CPU).
  const servedBundles = {};
  // A new file per changed interface each time, all read before any is written, so a Prism never reads
  // half a file. Resolves to the files and the bundles they were made from, by name.
  const writeDocuments = () => {
    const bundleTexts = Object.fromEntries(names.map((name) => [name, readFileSync(from[name], 'utf8')]));
    const changed = names.filter((name) => bundleTexts[name] !== servedBundles[name]);
    const texts = changed.map((name) => JSON.stringify(withCompleteExamples(JSON.parse(bundleTexts[name]))));
    generation += 1;
    const written = {};
    changed.forEach((name, i) => {
      written[name] = join(served, `${name}-${generation}.json`);
      writeFileSync(written[name], texts[i]);
    });
    return { written, bundleTexts };
  };
  try {
    const urls = {};
    const { written: documents, bundleTexts } = writeDocuments();
    Object.assign(servedBundles, bundleTexts);
    for (const name of names) {
      const { socket, port } = await listeningSocket(host, ports[name] ?? 0);
      supervisors.push(supervise(name, documents[name], { socket, host, port, verbose, timeoutMs, log, standby, warm }));
      urls[name] = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    }
    await Promise.all(supervisors.map((s) => s.start()));
    return {
      urls,
      stop,
      /**
       * With `warm`: has the Prisms serving read the bundles `texts` in place (name -> the bundle's text, as
       * it will be written) before they are written, held from the port. Resolves to what `reload({ prepared })` takes,
       * with a `cancel()` for bundles that will not be served.
       */
      async prepare(texts) {
        const changed = names.filter((name) => texts[name] !== undefined && texts[name] !== servedBundles[name]);
        generation += 1;
        const files = {};
        for (const name of changed) {
          files[name] = join(served, `${name}-${generation}.json`);
          writeFileSync(files[name], JSON.stringify(withCompleteExamples(JSON.parse(texts[name]))));
        }
        const prisms = Object.fromEntries(await Promise.all(changed.map(async (name) => [name, await supervisors[names.indexOf(name)].prepare(files[name])])));
        const drop = (name) => {
          if (prisms[name]) supervisors[names.indexOf(name)].cancel(prisms[name]);
          rmSync(files[name], { force: true });
        };
        return { texts, files, prisms, drop, cancel: () => changed.forEach(drop) };
      },
      /**
       * Serves the bundles as they are now (the interfaces whose bundle changed); see the swap in supervise().
       * `prepared` (from prepare()): its Prisms are swapped in for the bundles that are the texts it loaded.
       */
      async reload({ prepared } = {}) {
        const { written, bundleTexts } = writeDocuments();
        const changed = names.filter((name) => name in written);
        const made = await prepared;
        const use = {};
        for (const name of Object.keys(made?.files ?? {})) {
          if (made.prisms[name] && changed.includes(name) && made.texts[name] === bundleTexts[name]) use[name] = made.prisms[name];
          else made.drop(name);
        }
        const next = {};
        for (const name of changed) {
          next[name] = use[name] ? made.files[name] : written[name];
          if (use[name]) rmSync(written[name], { force: true });
        }
        const swapped = await Promise.allSettled(changed.map((name) => supervisors[names.indexOf(name)].swap(next[name], use[name])));
        // The file an interface's Prisms no longer read goes: the old one if it swapped, else the new one.
        swapped.forEach((outcome, i) => {
          const name = changed[i];
          const ok = outcome.status === 'fulfilled';
          rmSync(ok ? documents[name] : next[name], { force: true });
          if (ok) {
            documents[name] = next[name];
            servedBundles[name] = bundleTexts[name];
          }
        });
        const failed = swapped.find((outcome) => outcome.status === 'rejected');
        if (failed) throw failed.reason;
      },
      prismPids: () => Object.fromEntries(names.map((name, i) => [name, supervisors[i].pid()])),
      warmPids: () => Object.fromEntries(names.map((name, i) => [name, supervisors[i].warmPid()])),
      standbysReady: () => Promise.all(supervisors.map((s) => s.standbyReady())).then(() => undefined),
      warmReady: () => Promise.all(supervisors.map((s) => s.warmReady())).then(() => undefined),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
