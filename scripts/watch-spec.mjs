// What `npm run dev` watches: the YAML sources under openapi/. A plain fs.watch on a file loses that file
// after its first rename-over save (`mv`, `sed -i`, an editor's safe save replace the inode it watched), so
// chokidar watches the folders and picks up new, replaced and deleted files alike.
import { watch } from 'chokidar';
import { relative, sep } from 'node:path';

// Outputs and fixtures that live under openapi/ but are not sources of the descriptions.
const notSources = /^(dist|released|tests|node_modules)(\/|$)/;
const isSource = (path) => /\.ya?ml$/.test(path) && !notSources.test(path);

/**
 * Calls `onChange(files)` after each burst of saves under `root` settles (`quietMs` without a further
 * event), with the changed YAML files relative to `root` ('/'-separated, sorted), each once. Calls never
 * overlap: saves made while one runs are gathered for the next. Resolves once the watch is in place, to
 * `{ close() }`.
 */
export async function watchSpec(root, onChange, { quietMs = 50, onError = (error) => console.log(`  failed   ${error.message}`) } = {}) {
  const pending = new Set();
  let timer;
  let running = Promise.resolve();

  const flush = () => {
    running = running.then(async () => {
      if (!pending.size) return;
      const files = [...pending].sort();
      pending.clear();
      try {
        await onChange(files);
      } catch (error) {
        onError(error);
      }
    });
  };

  const watcher = watch(root, {
    ignoreInitial: true,
    // Not into dist/ (written by every rebuild) nor node_modules.
    ignored: (path) => notSources.test(relative(root, path).split(sep).join('/')),
  });
  watcher.on('all', (_event, path) => {
    const file = relative(root, path).split(sep).join('/');
    if (!isSource(file)) return;
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
