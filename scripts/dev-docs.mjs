// The docs rebuilds of `npm run dev`: after a spec save, the whole site (reference pages, downloads,
// guides); after a guide save, only the Markdown pages and the search index (`docs/build.mjs --guides`).
// One build at a time, as both write docs/dist; asks that come while one runs share one more build, the
// whole site if any of them needs it.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const docsDir = fileURLToPath(new URL('../docs', import.meta.url));

/** Runs docs/build.mjs with `args` in its own process (fresh code of the build and the site every time). */
export const runDocsBuild = (args, env = process.env) => promisify(execFile)(process.execPath, ['build.mjs', ...args], { cwd: docsDir, env });

/**
 * `rebuild(guidesOnly)` resolves, once a build that covers the ask has finished, to one line for dev's
 * report. `run(args)` does one build (runDocsBuild by default; `extraArgs` are added to every build).
 */
export function docsRebuilder({ run = runDocsBuild, extraArgs = [] } = {}) {
  let chain = Promise.resolve();
  let waiting;
  const build = async (guidesOnly) => {
    const began = performance.now();
    try {
      await run([...(guidesOnly ? ['--guides'] : []), ...extraArgs]);
      return `  docs     ${guidesOnly ? 'guides' : 'reference and guides'} rebuilt (${Math.round(performance.now() - began)} ms)`;
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
