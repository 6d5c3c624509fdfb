// What `npm run dev` watches: the YAML sources under openapi/ (watchSpec) and the Markdown pages and
// templates of the docs site (watchSite). A plain fs.watch on a file loses that file after its first
// rename-over save (`mv`, `sed -i`, an editor's safe save replace the inode it watched), so chokidar watches
// the folders and picks up new, replaced and deleted files alike.
import { watch } from 'chokidar';
import { dirname, relative, resolve, sep } from 'node:path';

// Outputs and fixtures that live under openapi/ but are not sources of the descriptions.
const notSources = /^(dist|released|tests|node_modules)(\/|$)/;
const isSource = (path) => /\.ya?ml$/.test(path) && !notSources.test(path);

/**
 * Calls `onChange(files, { firstEventAt })` after each burst of changes under the folders `dirs` settles
 * (`quietMs` without a further event), with the changed files that `include` accepts, relative to `root`
 * ('/'-separated, sorted), each once, and the `performance.now()` of the burst's first event (dev times its
 * steps from the save, not from the end of the wait). `ignored` keeps the watch out of folders (relative
 * paths). Calls never overlap: changes made while one runs are gathered for the next. Resolves once the
 * watch is in place, to `{ close() }`.
 */
export async function watchFiles(root, dirs, onChange, { include, ignored = () => false, depth, quietMs = 50, onError = (error) => console.log(`  failed   ${error.message}`) }) {
  const pending = new Set();
  let firstEventAt;
  let timer;
  let running = Promise.resolve();
  const relativePath = (path) => relative(root, resolve(root, path)).split(sep).join('/');

  const flush = () => {
    running = running.then(async () => {
      if (!pending.size) return;
      const files = [...pending].sort();
      const burst = { firstEventAt };
      pending.clear();
      firstEventAt = undefined;
      try {
        await onChange(files, burst);
      } catch (error) {
        onError(error);
      }
    });
  };

  const watcher = watch(
    dirs.map((dir) => resolve(root, dir)),
    { ignoreInitial: true, depth, ignored: (path) => ignored(relativePath(path)) },
  );
  watcher.on('all', (_event, path) => {
    const file = relativePath(path);
    if (!include(file)) return;
    firstEventAt ??= performance.now();
    pending.add(file);
    clearTimeout(timer);
    timer = setTimeout(flush, quietMs);
  });
  watcher.on('error', onError);
  await new Promise((resolve) => watcher.once('ready', resolve));
  return {
    async close() {
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}

/** The YAML sources under `root` (openapi/), reported relative to it; not dist/ (written by every rebuild). */
export function watchSpec(root, onChange, options = {}) {
  return watchFiles(root, ['.'], onChange, { ...options, include: isSource, ignored: (path) => notSources.test(path) });
}

/**
 * The sources of the docs site's Markdown pages (`pages`: repository paths, as in docs/site/pages.mjs),
 * every guide of docs/ (a new one is seen before it is listed), and the site's template and assets in
 * docs/site/, reported relative to `root` (the repository). Only those folders are watched, each without
 * its subfolders, so node_modules and dist/ are never read.
 */
export function watchSite(root, pages, onChange, options = {}) {
  const wanted = new Set(pages);
  const dirs = [...new Set([...pages.map((page) => dirname(page)), 'docs', 'docs/site'])].sort();
  const include = (file) => wanted.has(file) || /^docs\/[^/]+\.md$/.test(file) || /^docs\/site\/[^/]+\.(html|css|js|mjs)$/.test(file);
  return watchFiles(root, dirs, onChange, { ...options, include, depth: 0 });
}
