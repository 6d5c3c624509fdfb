// The docs rebuilds of `npm run dev`: after a spec save, the whole site (reference pages, downloads,
// guides); after a guide save, only the Markdown pages and the search index (`docs/build.mjs --guides`).
// One build at a time, as both write docs/dist; asks that come while one runs share one more build, the
// whole site if any of them needs it. dev keeps the build's process between builds (warmDocsBuild).
import { execFile, fork } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const docsDir = fileURLToPath(new URL('../docs', import.meta.url));

/** Runs docs/build.mjs with `args` in its own process (fresh code of the build and the site every time). */
export const runDocsBuild = (args, env = process.env) => promisify(execFile)(process.execPath, ['build.mjs', ...args], { cwd: docsDir, env });

/** The docs build's own modules (docs/*.mjs and docs/site/*.mjs of `dir`), each with its size and time of change. */
export function docsCodeSignature(dir = docsDir) {
  const files = ['', 'site'].flatMap((folder) => readdirSync(join(dir, folder)).filter((name) => name.endsWith('.mjs')).map((name) => join(folder, name)));
  return files
    .sort()
    .map((file) => {
      const stat = statSync(join(dir, file), { throwIfNoEntry: false });
      return `${file} ${stat?.size} ${stat?.mtimeMs}`;
    })
    .join('\n');
}

/**
 * Runs docs/build.mjs like runDocsBuild, in a process kept between builds (scripts/dev-docs-child.mjs): a
 * Node start and the build's imports are more than half of a build's CPU time (0.45 s in a new process
 * against 0.1 to 0.2 s in a warm one). The code stays fresh: the process is started again before a build
 * when a module of the docs build (`docsCodeSignature(docsDir)`) changed since it started, and after a failed
 * build. `run(args)` rejects with the failure in `stderr`; `close()` ends the process. `dir` and `build`
 * name another build (tests).
 */
export function warmDocsBuild({ env = process.env, dir = docsDir, build = join(dir, 'build.mjs') } = {}) {
  let child;
  let signature;
  let next = 0;
  const start = () => {
    signature = docsCodeSignature(dir);
    const started = fork(fileURLToPath(new URL('./dev-docs-child.mjs', import.meta.url)), [build], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    started.waiting = new Map();
    // A send to a process that has just ended: its exit rejects what waits on it.
    started.on('error', () => {});
    let stderr = '';
    started.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4096)));
    started.on('message', ({ id, error }) => {
      const waiting = started.waiting.get(id);
      if (!waiting) return;
      started.waiting.delete(id);
      if (error === undefined) return waiting.resolve();
      stop(started);
      waiting.reject(Object.assign(new Error('the docs build failed'), { stderr: error }));
    });
    started.on('exit', (code, signal) => {
      if (child === started) child = undefined;
      for (const { reject } of started.waiting.values()) reject(Object.assign(new Error(`the docs build's process ended (${code ?? signal})`), { stderr }));
    });
    return started;
  };
  const stop = (which) => {
    if (child === which) child = undefined;
    which?.kill();
  };
  return {
    run(args) {
      if (child && signature !== docsCodeSignature(dir)) stop(child);
      child ??= start();
      const running = child;
      const id = ++next;
      return new Promise((resolve, reject) => {
        running.waiting.set(id, { resolve, reject });
        running.send({ id, args }, (error) => {
          if (error && running.waiting.delete(id)) reject(error);
        });
      });
    },
    /** The build process's id, while there is one (for tests). */
    pid: () => child?.pid,
    close: () => stop(child),
  };
}

/**
 * `rebuild(guidesOnly)` resolves, once a build that covers the ask has finished, to one line for dev's
 * report. `run(args)` does one build (runDocsBuild by default; `extraArgs` are added to every build).
 * `cpu()`, if given, reads `{ pid, seconds }` of the build's process: the line then gives the build's CPU
 * seconds (when one process did all of it).
 */
export function docsRebuilder({ run = runDocsBuild, extraArgs = [], cpu } = {}) {
  let chain = Promise.resolve();
  let waiting;
  const build = async (guidesOnly) => {
    const began = performance.now();
    const before = cpu?.();
    try {
      await run([...(guidesOnly ? ['--guides'] : []), ...extraArgs]);
      const after = cpu?.();
      const used = before?.pid !== undefined && before.pid === after?.pid && before.seconds !== undefined && after.seconds !== undefined ? `; CPU: ${(after.seconds - before.seconds).toFixed(2)} s` : '';
      return `  docs     ${guidesOnly ? 'guides' : 'reference and guides'} rebuilt (${Math.round(performance.now() - began)} ms${used})`;
    } catch (error) {
      return `  docs     failed: ${String(error.stderr || error.message).trim().split('\n')[0]}`;
    }
  };
  return function rebuild(guidesOnly) {
    if (waiting) {
      waiting.guidesOnly &&= guidesOnly;
      return waiting.done;
    }
    const ask = { guidesOnly };
    waiting = ask;
    ask.done = chain.then(() => {
      waiting = undefined;
      return build(ask.guidesOnly);
    });
    chain = ask.done;
    return ask.done;
  };
}
