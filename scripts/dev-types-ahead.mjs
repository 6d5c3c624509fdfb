// The types of a save, made in a worker thread while `npm run dev` lints it (issue 16): the generation needs
// only the bundle, and the check's worker (dev-check.mjs) hands its bundles on before it lints, so the types
// are made on the second core while the lint runs on the first. dev writes them only once the check has
// passed; nothing the worker makes is ever written for a save that fails the check.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

/**
 * Starts the worker. `make(texts)` (the bundles' texts of the APIs whose bundle a save changed, by name, as
 * dev writes them) resolves to `{ texts, files, cpu }`: the generated files by name, made from those bundles
 * and the others as served in `bundleDir`, and the worker's CPU seconds for them; `{ failed }` (why) if the
 * worker could not make them; undefined if it is gone (dev then generates them itself). Whether a bundle
 * changed is dev's to say: by the time the worker reads `bundleDir`, dev may have written the save's bundle.
 */
export function typesAhead({ bundleDir = 'openapi/dist' } = {}) {
  const worker = new Worker(new URL(import.meta.url));
  worker.unref();
  let next = 0;
  let gone = false;
  const waiting = new Map();
  let warmed;
  worker.on('message', ({ id, result, warm }) => {
    if (warm) return warmed?.();
    waiting.get(id)?.(result);
    waiting.delete(id);
  });
  const failAll = () => {
    gone = true;
    warmed?.();
    for (const done of waiting.values()) done(undefined);
    waiting.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', failAll);
  worker.postMessage({ init: { bundleDir: resolve(bundleDir) } });
  return {
    make(texts) {
      if (gone) return Promise.resolve(undefined);
      const id = ++next;
      return new Promise((done) => {
        waiting.set(id, done);
        worker.postMessage({ id, texts });
      });
    },
    /**
     * Generates the types of the served bundles once, for nothing: the generator's first runs in a thread
     * are its slowest (0.3 s of CPU for the current description, 0.1 s from the third on), and the first
     * save should not pay for them. Resolves once done (or given way to a save).
     */
    warmUp() {
      if (gone) return Promise.resolve();
      return new Promise((resolve) => {
        warmed = resolve;
        worker.postMessage({ warmUp: true });
      });
    },
    close: () => worker.terminate(),
  };
}

if (!isMainThread && parentPort) {
  const { generateAll } = await import('../packages/types/scripts/generate.mjs');
  const { cpuBetween, threadCpu } = await import('./dev-cpu.mjs');
  let settings;
  // One message at a time: the warm-up and a save's types would otherwise run interleaved in the generator.
  let chain = Promise.resolve();
  // Saves waiting: the warm-up gives way to them.
  let waiting = 0;
  parentPort.on('message', (message) => {
    if (message.id !== undefined) waiting += 1;
    chain = chain.then(() => handle(message));
  });
  async function handle(message) {
    if (message.init) return void (settings = message.init);
    if (message.warmUp) {
      const names = readdirSync(settings.bundleDir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
      warming: for (let round = 0; round < 2; round++) {
        for (const name of names) {
          if (waiting) break warming;
          await generateAll({ bundleDir: settings.bundleDir, only: [name] }).catch(() => {});
        }
      }
      return parentPort.postMessage({ warm: true });
    }
    waiting -= 1;
    const { id, texts } = message;
    const dir = mkdtempSync(join(tmpdir(), 'idv-dev-types-'));
    const began = threadCpu();
    try {
      // The other bundles as dev serves them now, and the new ones.
      for (const file of readdirSync(settings.bundleDir).filter((f) => f.endsWith('.json'))) copyFileSync(join(settings.bundleDir, file), join(dir, file));
      for (const [name, text] of Object.entries(texts)) writeFileSync(join(dir, `${name}.json`), text);
      const generated = await generateAll({ bundleDir: dir, only: Object.keys(texts) });
      parentPort.postMessage({ id, result: { texts, files: [...generated], cpu: cpuBetween(began, threadCpu()) } });
    } catch (error) {
      parentPort.postMessage({ id, result: { failed: String(error?.message ?? error).split('\n')[0] } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
