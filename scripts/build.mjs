#!/usr/bin/env node
// `npm run build`: turbo's build of every package, behind an up-to-date check. With nothing changed since
// the last successful build, turbo's own start (its Node launcher, the binary, git, hashing every input and
// reading each task's cache entry) is most of a no-change build's time; this check reads the same files'
// stats instead and skips turbo when none changed (docs/benchmarks.md, "Build and watch"). Anything it
// cannot vouch for goes to turbo: extra arguments, a first build, a failed one, any changed input or output.
//
// Inputs: every file git does not ignore (tracked or not), which is every file turbo can hash as an input;
// the environment variables turbo.json names. Outputs: each build task's output directory. A file whose
// stats changed is read and compared by content, so a build that rewrites a file with the same bytes (the
// types' generation in a cold build, say) does not force the next one through turbo.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const defaultRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the last successful build's fingerprint is kept (turbo's own directory, ignored by git). */
export const stateFile = (root) => join(root, '.turbo', 'up-to-date.json');
/**
 * A file changed less than this before it was fingerprinted may change again within the file system's
 * timestamp granularity without its stats showing it (git's "racily clean" entries): it is compared by
 * content on every check until a later fingerprint sees it older.
 */
export const racyMs = 2_000;

const hashOf = (bytes) => createHash('sha1').update(bytes).digest('hex');
export const statKey = (s) => `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.mode}`;

/** Files git does not ignore, tracked or not, relative to the root; deleted tracked files are left out. */
function inputFiles(root) {
  const git = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (git.status !== 0) throw new Error(`git ls-files failed: ${git.stderr}`);
  return git.stdout.split('\0').filter(Boolean);
}

function walk(root, dir, into) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return into;
  }
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(root, path, into);
    else into.push(path);
  }
  return into;
}

/** The output directories of the build task of every workspace that has a build script (from turbo.json). */
function outputDirs(root) {
  const turbo = JSON.parse(readFileSync(join(root, 'turbo.json'), 'utf8'));
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirs = [];
  for (const pattern of workspaces) {
    const found = pattern.endsWith('/*') ? readdirSync(join(root, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -2)}/${name}`) : [pattern];
    for (const workspace of found) {
      let manifest;
      try {
        manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (!manifest.scripts?.build) continue;
      const task = turbo.tasks?.[`${manifest.name}#build`] ?? turbo.tasks?.build ?? {};
      for (const glob of task.outputs ?? []) {
        if (glob.startsWith('!')) continue;
        // "dist/**" and the like: the directory before the first wildcard holds every file it matches.
        const base = glob.split('/').filter((part, i, parts) => !/[*?[{]/.test(part) && parts.slice(0, i).every((p) => !/[*?[{]/.test(p)));
        dirs.push([workspace, ...base].join('/'));
      }
    }
  }
  return dirs;
}

/** The values of the environment variables turbo.json hashes (globalEnv, each task's env; `*` wildcards). */
function environment(root) {
  const turbo = JSON.parse(readFileSync(join(root, 'turbo.json'), 'utf8'));
  const names = [...(turbo.globalEnv ?? []), ...Object.values(turbo.tasks ?? {}).flatMap((task) => task.env ?? [])];
  const chosen = {};
  for (const name of names) {
    if (name.startsWith('!')) continue;
    const pattern = new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
    for (const key of Object.keys(process.env).sort()) if (pattern.test(key)) chosen[key] = process.env[key];
  }
  return chosen;
}

/**
 * Stats (and, where `previous` cannot vouch for a file, content hashes) of the given files. Returns the
 * entries and whether every file matches `previous` by stats or by content.
 */
function fingerprint(root, paths, previous = {}, racy = racyMs) {
  const now = Date.now();
  const entries = {};
  let count = 0;
  let same = true;
  /** Whether any entry differs from `previous` (by stats, or by the racy mark), so the record is rewritten. */
  let refreshed = false;
  for (const path of paths) {
    let stats;
    try {
      stats = statSync(join(root, path), { bigint: true });
    } catch {
      // Listed but gone (a tracked file deleted and not yet staged): absent, as for turbo.
      continue;
    }
    count++;
    const key = statKey(stats);
    const before = previous[path];
    const recent = now - Number(stats.mtimeNs / 1_000_000n) < racy || now - Number(stats.ctimeNs / 1_000_000n) < racy;
    if (before && before.stat === key && !before.racy && !recent) {
      entries[path] = before;
      continue;
    }
    let hash;
    try {
      // Compared by content: a stat change with the same bytes (a rewrite, a save by rename) is no change.
      hash = hashOf(readFileSync(join(root, path)));
    } catch {
      // Unreadable (a directory, a dangling link): never vouched for.
      same = false;
      refreshed = true;
      continue;
    }
    const entry = { stat: key, hash, racy: recent };
    if (!before || before.hash !== entry.hash) same = false;
    if (!before || before.stat !== key || before.racy !== recent) refreshed = true;
    entries[path] = entry;
  }
  // A file gone or added since: the counts differ, or a file has no entry before.
  if (count !== Object.keys(previous).length) same = false;
  return { entries, same, refreshed };
}

function outputs(root) {
  return outputDirs(root).flatMap((dir) => walk(root, dir, []));
}

function readState(root) {
  try {
    return JSON.parse(readFileSync(stateFile(root), 'utf8'));
  } catch {
    return undefined;
  }
}

function writeState(root, state) {
  const file = stateFile(root);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}

/**
 * Whether the last successful build still holds: same inputs, same environment, same outputs. Refreshes
 * the recorded stats of files whose stats changed but whose bytes did not, so the next check reads stats only.
 */
export function upToDate(root = defaultRoot, racy = racyMs) {
  const state = readState(root);
  if (!state || state.version !== 1) return false;
  if (JSON.stringify(environment(root)) !== JSON.stringify(state.environment)) return false;
  const inputs = fingerprint(root, inputFiles(root), state.inputs, racy);
  if (!inputs.same) return false;
  const built = fingerprint(root, outputs(root), state.outputs, racy);
  if (!built.same) return false;
  if (inputs.refreshed || built.refreshed) writeState(root, { ...state, inputs: inputs.entries, outputs: built.entries });
  return true;
}

/**
 * Runs turbo's build unless it is up to date; on success records the inputs as they were before turbo
 * started and the outputs after. `racy` (tests): see racyMs.
 */
export function build(args = [], { root = defaultRoot, turbo = join(root, 'node_modules', '.bin', 'turbo'), racy = racyMs } = {}) {
  // A build of part of the graph, or with turbo's own options, is turbo's alone, and records nothing.
  // Without git (a copy without .git, say) nothing can be vouched for: turbo builds, every time.
  const attempt = (step) => {
    try {
      return step();
    } catch {
      return undefined;
    }
  };
  if (args.length === 0 && attempt(() => upToDate(root, racy))) {
    console.log('build: up to date, nothing changed since the last build (turbo not started; `npm run build -- --force` rebuilds)');
    return 0;
  }
  // Read before turbo starts, so a file saved during the build counts as changed next time.
  const before = args.length === 0 ? attempt(() => ({ environment: environment(root), inputs: fingerprint(root, inputFiles(root), {}, racy).entries })) : undefined;
  rmSync(stateFile(root), { force: true });
  const run = spawnSync(turbo, ['run', 'build', ...args], { cwd: root, stdio: 'inherit' });
  const status = run.status ?? 1;
  if (status === 0 && before) writeState(root, { version: 1, ...before, outputs: fingerprint(root, outputs(root), {}, racy).entries });
  return status;
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') process.exit(build(process.argv.slice(2)));
