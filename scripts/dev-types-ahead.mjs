// The types of a save, made ahead in a worker thread while `npm run dev` lints it (issue 16): the lint is
// two thirds of the check (0.84 s of CPU for the current description, against 0.17 s for its bundle) and the
// generation needs only the bundle, so on a second core the worker bundles the descriptions the saved files
// belong to and generates their types, in memory. dev writes them only once the check has passed and only
// if the worker's bundle is the check's, byte for byte; else it generates them again itself. Nothing the
// worker makes is ever written for a save that fails the check.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

/**
 * The names of the APIs of `configPath` (redocly.yaml) that a save of `files` (paths under its folder, as
 * dev gets them) may change: those whose root's folder holds a saved file; every API when a saved file is
 * in no API's folder (openapi/common/, redocly.yaml).
 */
export function touchedApis(apis, files) {
  const folders = Object.entries(apis).map(([alias, { root }]) => [alias.split('@')[0], dirname(root)]);
  const touched = new Set();
  for (const file of files) {
    const owner = folders.find(([, folder]) => folder !== '.' && file.startsWith(`${folder}/`));
    if (!owner) return folders.map(([name]) => name);
    touched.add(owner[0]);
  }
  return [...touched];
}

/**
 * Starts the worker. `ahead(files, onBundled)` resolves to `{ texts, files }`: per API touched by the saved
 * `files`, the bundle's text as dev writes it, and the generated files by name (none, with `unchanged`,
 * when every bundle is the one in `bundleDir` already: nothing to serve anew); or undefined if the worker
 * could not make them (a save that does not bundle: the check says why). `onBundled(texts)` gets the
 * bundles' texts as soon as they are made, before the generation (dev has the mocks load them).
 */
export function typesAhead({ configPath = 'openapi/redocly.yaml', bundleDir = 'openapi/dist' } = {}) {
  const worker = new Worker(new URL(import.meta.url));
  worker.unref();
  let next = 0;
  let gone = false;
  const waiting = new Map();
  const bundledCallbacks = new Map();
  worker.on('message', ({ id, result, bundled }) => {
    if (bundled) return bundledCallbacks.get(id)?.(bundled);
    bundledCallbacks.delete(id);
    waiting.get(id)?.(result);
    waiting.delete(id);
  });
  // A worker that failed makes nothing more: dev then generates the types itself, as it did before.
  const failAll = () => {
    gone = true;
    for (const resolve of waiting.values()) resolve(undefined);
    waiting.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', failAll);
  worker.postMessage({ init: { configPath: resolve(configPath), bundleDir: resolve(bundleDir) } });
  return {
    ahead(files, onBundled) {
      if (gone) return Promise.resolve(undefined);
      const id = ++next;
      return new Promise((done) => {
        waiting.set(id, done);
        if (onBundled) bundledCallbacks.set(id, onBundled);
        worker.postMessage({ id, files });
      });
    },
    close: () => worker.terminate(),
  };
}

if (!isMainThread && parentPort) {
  const { bundle, loadConfig } = await import('@redocly/openapi-core');
  const { generateAll } = await import('../packages/types/scripts/generate.mjs');
  let settings;
  parentPort.on('message', async (message) => {
    if (message.init) return void (settings = message.init);
    const { id, files } = message;
    const dir = mkdtempSync(join(tmpdir(), 'idv-dev-types-'));
    try {
      const config = await loadConfig({ configPath: settings.configPath });
      const apis = config.resolvedConfig.apis ?? {};
      const root = dirname(settings.configPath);
      const names = touchedApis(apis, files);
      // The other bundles as dev serves them now, and the touched ones bundled from the saved sources.
      for (const file of readdirSync(settings.bundleDir).filter((f) => f.endsWith('.json'))) copyFileSync(join(settings.bundleDir, file), join(dir, file));
      const texts = {};
      for (const [alias, { root: entry }] of Object.entries(apis)) {
        const name = alias.split('@')[0];
        if (!names.includes(name)) continue;
        const result = await bundle({ ref: resolve(root, entry), config: config.forAlias(alias) });
        if (result.problems.some((problem) => problem.severity === 'error')) throw new Error(`${name} does not bundle`);
        texts[name] = JSON.stringify(result.bundle.parsed, null, 2);
        writeFileSync(join(dir, `${name}.json`), texts[name]);
      }
      parentPort.postMessage({ id, bundled: texts });
      // Bundles that are the served ones (a save that changed nothing they hold, or the second half of a
      // burst the watcher saw in two) need no types: dev serves nothing new for them.
      const served = (name) => readFileSync(join(settings.bundleDir, `${name}.json`), 'utf8');
      const isServed = (name) => {
        try {
          return served(name) === texts[name];
        } catch {
          return false;
        }
      };
      if (Object.keys(texts).every(isServed)) return parentPort.postMessage({ id, result: { texts, files: [], unchanged: true } });
      const generated = await generateAll({ bundleDir: dir, only: names });
      parentPort.postMessage({ id, result: { texts, files: [...generated] } });
    } catch {
      parentPort.postMessage({ id, result: undefined });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
