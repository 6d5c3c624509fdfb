// The sandbox's handler code, reloaded in place by `npm run dev` (issue 16): the running sandbox keeps its
// server, port, data (memory or PGlite), pending callbacks and rate-limit counts, and answers with the new
// handlers, handed to it by `sandbox.replaceHandlers(handlers, { readOnlyOperations, completeSession })`
// (the applicant page's finish is the server's own import of handlers/control.js, so it is handed over
// too). A sandbox without replaceHandlers (a build from before it) reads `handlers[operationId]` of the
// package's `allHandlers` at each request: that object's entries are swapped instead.
//
// A module is loaded once per URL, so the new code is loaded from a copy: each compiled module of the
// handlers' graph that changed since dev loaded the package, or imports one that did, is copied into
// dist/.dev-reload/<n>/ (under dist/: ignored by git, gone at the next compile, resolving packages as dist/
// does) with its imports of unchanged modules pointed at the loaded ones. The modules the server itself
// loaded that export a class (errors.js, store.js) are never copied: the server and the stores tell an
// ApiError, a StoreFull or a Duplicate by its class, so a handler must throw the server's. A change to one
// of those, or to the server's own code, is named as needing a restart.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const reloadDir = '.dev-reload';
// The relative specifiers of a compiled module: static imports and re-exports, and dynamic imports.
const relativeSpecifier = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']+)\2/g;

/** Every compiled module of `distDir` (not the reload copies): its text, hash and the modules it imports, by '/'-path. */
export function readModules(distDir) {
  const modules = new Map();
  for (const file of readdirSync(distDir, { recursive: true }).map(String)) {
    const path = file.split('\\').join('/');
    if (!path.endsWith('.js') || path.startsWith(`${reloadDir}/`)) continue;
    const text = readFileSync(join(distDir, path), 'utf8');
    const imports = [...text.matchAll(relativeSpecifier)].map((match) => posix.normalize(posix.join(posix.dirname(path), match[3])));
    modules.set(path, { text, hash: createHash('sha256').update(text).digest('hex'), imports });
  }
  return modules;
}

/** The modules reachable from `entry`, not going through `stop`. */
export function reachable(modules, entry, stop) {
  const seen = new Set();
  const visit = (path) => {
    if (seen.has(path) || path === stop || !modules.has(path)) return;
    seen.add(path);
    for (const next of modules.get(path).imports) visit(next);
  };
  visit(entry);
  return seen;
}

/**
 * What a reload loads, from the modules as loaded (`loaded`, read when dev started) and as now (`current`):
 * `changed`, the modules whose code differs (or is new); `fresh`, the modules of the handlers' graph to load
 * again (changed, or importing one that is, but not `pinned`); `pinned`, the server's modules that export a
 * class, kept as loaded; `needRestart`, the changed modules the server itself uses (outside the handlers'
 * graph, or pinned), whose old code it keeps.
 */
export function planReload(loaded, current, { entry = 'index.js', handlers = 'handlers/index.js' } = {}) {
  const changed = new Set([...current.keys()].filter((path) => loaded.get(path)?.hash !== current.get(path).hash));
  const server = reachable(loaded, entry, handlers);
  const pinned = new Set([...server].filter((path) => /^export class /m.test(loaded.get(path).text)));
  const graph = reachable(current, handlers);
  const freshness = new Map();
  const isFresh = (path) => {
    if (pinned.has(path) || !graph.has(path)) return false;
    if (freshness.has(path)) return freshness.get(path);
    freshness.set(path, false); // an import cycle: decided by the rest of it
    const fresh = changed.has(path) || current.get(path).imports.some(isFresh);
    freshness.set(path, fresh);
    return fresh;
  };
  const fresh = [...graph].filter(isFresh).sort();
  const needRestart = [...changed].filter((path) => pinned.has(path) || (server.has(path) && !graph.has(path))).sort();
  return { changed: [...changed].sort(), fresh, pinned: [...pinned].sort(), needRestart };
}

/** The source file a compiled module comes from, for dev's report: `handlers/blacklist.js` -> `handlers/blacklist.ts`. */
export const sourceOf = (path) => path.replace(/\.js$/, '.ts');

/**
 * A reloader of the handlers of the package in `packageDir` (compiled in its dist/), for a process that has
 * loaded the package already (its dist/ as it is now is what is loaded). `reload()`, after each compile,
 * hands the new handlers to `sandbox.replaceHandlers` (with the read-only operations and the
 * `completeSession` of `control`, new or as loaded), or without a sandbox that has it, swaps them into the
 * loaded `allHandlers` and `readOnlyOperations`; resolves to the plan (see planReload) with `generation`
 * (0: nothing to load).
 */
export async function handlerReloader(packageDir = 'packages/sandbox', { sandbox, control = 'handlers/control.js' } = {}) {
  const distDir = resolve(packageDir, 'dist');
  const url = (path) => pathToFileURL(join(distDir, path)).href;
  const loaded = readModules(distDir);
  // The instance the running sandbox reads: the same URL as the package's own import of it.
  const live = await import(url('handlers/index.js'));
  let generation = 0;
  return {
    async reload() {
      const current = readModules(distDir);
      const plan = planReload(loaded, current);
      if (!plan.fresh.length) return { ...plan, generation: 0 };
      generation += 1;
      const copyDir = join(distDir, reloadDir, String(generation));
      rmSync(copyDir, { recursive: true, force: true });
      const fresh = new Set(plan.fresh);
      for (const path of plan.fresh) {
        const text = current.get(path).text.replace(relativeSpecifier, (whole, head, quote, specifier) => {
          const target = posix.normalize(posix.join(posix.dirname(path), specifier));
          return fresh.has(target) ? whole : `${head}${quote}${url(target)}${quote}`;
        }).replace(/^\/\/# sourceMappingURL=(\S+)$/m, (_whole, map) => `//# sourceMappingURL=${url(posix.join(posix.dirname(path), map))}`);
        mkdirSync(dirname(join(copyDir, path)), { recursive: true });
        writeFileSync(join(copyDir, path), text);
      }
      const next = await import(pathToFileURL(join(copyDir, 'handlers/index.js')).href);
      if (typeof sandbox?.replaceHandlers === 'function') {
        const code = { readOnlyOperations: next.readOnlyOperations };
        if (current.has(control)) {
          const { completeSession } = await import(fresh.has(control) ? pathToFileURL(join(copyDir, control)).href : url(control));
          if (typeof completeSession === 'function') code.completeSession = completeSession;
        }
        sandbox.replaceHandlers(next.allHandlers, code);
        return { ...plan, generation };
      }
      for (const operationId of Object.keys(live.allHandlers)) if (!(operationId in next.allHandlers)) delete live.allHandlers[operationId];
      Object.assign(live.allHandlers, next.allHandlers);
      live.readOnlyOperations.clear();
      for (const operationId of next.readOnlyOperations) live.readOnlyOperations.add(operationId);
      return { ...plan, generation };
    },
  };
}
