// The check of `npm run dev` (spec-check.mjs: bundle and lint) in a worker thread of its own (issue 16).
// Redocly's lint walks the description without yielding: in dev's main thread it held everything else that
// thread does for the whole lint (0.7 s of CPU idle, many seconds on a busy machine): the sandbox's answers,
// the watcher's events (so a save's new files came in a second burst), and the message that hands the
// worker's bundle to the warm Prism (so the Prism started reading it only once the lint was over). In a
// worker, they go on while it lints.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * Starts the worker. `check(changed, onBundled)` is specChecker's check (spec-check.mjs), run in the worker,
 * resolving to `{ texts, errors, warnings, checked, cpu }`: `texts` maps each API's name to its bundle as dev
 * writes it (JSON, two-space indent), undefined when any API has an error. `onBundled(texts)` gets the
 * texts of the APIs bundled anew before the lint (see specChecker); `cpu`, the worker's CPU seconds for
 * the bundles (`bundle`, up to their hand-over) and the lint (`lint`), or `total` when none was handed on. Checks run one at a time, in order.
 * `close()` ends the worker.
 */
export function checkerWorker({ configPath = 'openapi/redocly.yaml', cwd = process.cwd() } = {}) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { devCheck: { configPath, cwd } } });
  worker.unref();
  let next = 0;
  const waiting = new Map();
  worker.on('message', ({ id, bundled, result, error }) => {
    if (bundled) return void waiting.get(id)?.onBundled?.(bundled);
    const { resolve, reject } = waiting.get(id) ?? {};
    waiting.delete(id);
    if (error === undefined) resolve?.(result);
    else reject?.(new Error(error));
  });
  const failAll = (error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the check's worker ended (${code})`)));
  return {
    check(changed, onBundled) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject, onBundled });
        worker.postMessage({ id, changed });
      });
    },
    close: () => worker.terminate(),
  };
}

if (!isMainThread && parentPort && workerData?.devCheck) {
  const { specChecker } = await import('./spec-check.mjs');
  const { cpuBetween, threadCpu } = await import('./dev-cpu.mjs');
  const checker = specChecker(workerData.devCheck);
  // The checker keeps each API's last bundle and findings between checks: one check at a time.
  let chain = Promise.resolve();
  // Each bundle's text once: an API not bundled again keeps its document, and so its text.
  const textOf = new WeakMap();
  const text = (document) => {
    if (!textOf.has(document)) textOf.set(document, JSON.stringify(document, null, 2));
    return textOf.get(document);
  };
  const textsOf = (bundles) => Object.fromEntries(Object.entries(bundles).map(([name, document]) => [name, text(document)]));
  parentPort.on('message', ({ id, changed }) => {
    chain = chain.then(async () => {
      try {
        // This thread's CPU seconds: the bundles (up to their hand-over) and the lint after them.
        const began = threadCpu();
        let bundledAt;
        const { bundles, errors, warnings, checked } = await checker.check(changed, (made) => {
          const texts = textsOf(made);
          bundledAt = threadCpu();
          parentPort.postMessage({ id, bundled: texts });
        });
        const texts = bundles && textsOf(bundles);
        const ended = threadCpu();
        const cpu = bundledAt === undefined ? { total: cpuBetween(began, ended) } : { bundle: cpuBetween(began, bundledAt), lint: cpuBetween(bundledAt, ended) };
        parentPort.postMessage({ id, result: { texts, errors, warnings, checked, cpu } });
      } catch (error) {
        parentPort.postMessage({ id, error: String(error?.message ?? error) });
      }
    });
  });
}
