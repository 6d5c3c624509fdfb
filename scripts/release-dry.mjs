#!/usr/bin/env node
// `node scripts/release-dry.mjs [--keep]`: rehearses a release without publishing anything and without
// touching the working tree. In a temporary copy of the repository (the files git tracks or would track,
// as they are now in the working tree, with node_modules linked to this checkout's):
//   1. the breaking-change check and its gate (before the changesets are consumed),
//   2. `changeset version`,
//   3. `turbo run build` of every publishable package (and what it depends on),
//   4. `npm pack --dry-run` of every publishable package, publint and `attw --pack` (check-package.mjs),
//      and a check that nothing published depends on a private workspace package,
//   5. the refresh of the released snapshots (openapi/released/) that the release makes once published.
// Then prints what would be published: name, version, files, size. Exit 1 when a release would fail.
// `--keep` leaves the temporary copy in place and prints its path.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { checkBreakingGate } from './breaking-gate.mjs';
import { findBreakingChanges, formatReport, RELEASED_DIR, ROOT, updateSnapshots } from './check-breaking.mjs';
import { checkPackage, publishableWorkspaces } from './check-package.mjs';
import { quietEnv } from './run.mjs';

const execFileAsync = promisify(execFile);
const keep = process.argv.includes('--keep');
const started = Date.now();
const problems = [];

async function sh(command, args, cwd) {
  try {
    const { stdout } = await execFileAsync(command, args, { cwd, env: quietEnv, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const output = [error.stdout, error.stderr].filter(Boolean).join('\n').split('\n').filter((line) => line.trim() && !/[║╔╚]/.test(line));
    throw new Error(`${command} ${args.join(' ')} failed (in ${cwd}):\n${output.slice(-40).join('\n')}`);
  }
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** attw's report is a page long; keep the lines that name a problem (its emoji marks) and not the ignored modes. */
function condense(problem) {
  if (!problem.startsWith('attw --pack:')) return problem;
  const lines = problem.slice('attw --pack:'.length).split('\n').map((line) => line.trim());
  const kept = lines.filter((line) => /^"/.test(line) || (/[💀❌🐛⚠️🥴🎭👺❗]/u.test(line) && !line.includes('(ignored)')));
  // An entry point is worth naming only when a problem line follows it.
  const named = kept.filter((line, i) => !/^"/.test(line) || (kept[i + 1] && !/^"/.test(kept[i + 1])));
  return `attw --pack: ${named.join('; ') || lines.filter(Boolean).slice(0, 3).join('; ')}`;
}
const step = (text) => console.log(`\n== ${text} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

/** The workspace packages of a repository root: `[{ dir, name, version, private, dependencies }]`. */
function workspaces(root) {
  const patterns = readJson(join(root, 'package.json')).workspaces ?? [];
  const dirs = patterns.flatMap((pattern) =>
    pattern.endsWith('/*') ? readdirSync(join(root, pattern.slice(0, -2))).map((name) => join(pattern.slice(0, -2), name)) : [pattern],
  );
  return dirs
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => ({ dir: join(root, dir), ...readJson(join(root, dir, 'package.json')) }));
}

/** Copies the files git tracks or would track (not ignored), as they are in the working tree now. */
async function copyRepository(to) {
  const files = (await sh('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ROOT)).split('\0').filter(Boolean);
  let copied = 0;
  for (const file of files) {
    const from = join(ROOT, file);
    if (!existsSync(from) || !lstatSync(from).isFile()) continue; // deleted in the working tree, or a symlink/submodule
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(from, join(to, file));
    copied++;
  }
  return copied;
}

/**
 * Gives the copy a node_modules of links into this checkout's, except that the workspace packages link to
 * the copy's own folders, so that builds and packs read the copy, never the working tree.
 */
function linkNodeModules(to) {
  const own = workspaces(to);
  const scopes = new Set(own.map((pkg) => pkg.name).filter((name) => name.startsWith('@')).map((name) => name.split('/')[0]));
  const modules = join(to, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.') && entry !== '.bin') continue; // caches (.vite) and npm's own bookkeeping
    if (scopes.has(entry)) {
      mkdirSync(join(modules, entry));
      for (const name of readdirSync(join(ROOT, 'node_modules', entry))) {
        if (!own.some((pkg) => pkg.name === `${entry}/${name}`)) symlinkSync(join(ROOT, 'node_modules', entry, name), join(modules, entry, name));
      }
    } else {
      symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
    }
  }
  for (const pkg of own) {
    mkdirSync(dirname(join(modules, pkg.name)), { recursive: true });
    if (!existsSync(join(modules, pkg.name))) symlinkSync(pkg.dir, join(modules, pkg.name));
  }
}

const work = mkdtempSync(join(tmpdir(), 'idv-release-dry-'));
try {
  step('Copying the repository into a temporary directory');
  console.log(`${await copyRepository(work)} files copied to ${keep ? work : 'a temporary directory'}; node_modules linked to this checkout's`);
  linkNodeModules(work);
  const before = new Map(workspaces(work).map((pkg) => [pkg.name, pkg.version]));

  step('Breaking changes against the last release, and the changesets that cover them');
  const breaking = await findBreakingChanges({ root: work });
  console.log(formatReport(breaking, { root: work }));
  const gate = checkBreakingGate(breaking.breaking, { changesetDir: join(work, '.changeset') });
  if (!gate.ok) {
    console.log(`\n${gate.message}`);
    problems.push('breaking changes without the major changesets they need (see above)');
  } else if (breaking.breaking.length) console.log(`Covered by major changesets: ${gate.majorChangesets.join(', ')}`);

  step('changeset version');
  await sh('npx', ['--no-install', 'changeset', 'version'], work);
  const after = workspaces(work);
  for (const pkg of after) {
    const old = before.get(pkg.name);
    console.log(`${pkg.name.padEnd(28)} ${old === pkg.version ? `${pkg.version} (unchanged)` : `${old} -> ${pkg.version}`}${pkg.private ? ' (private: not published)' : ''}`);
  }
  const left = readdirSync(join(work, '.changeset')).filter((file) => file.endsWith('.md') && file.toLowerCase() !== 'readme.md');
  if (left.length) problems.push(`changesets not consumed by changeset version: ${left.join(', ')}`);

  const publishable = publishableWorkspaces(work);
  const names = publishable.map((dir) => readJson(join(dir, 'package.json')).name);
  step(`Building ${names.join(', ')} (turbo run build, with what they depend on)`);
  await sh('npx', ['--no-install', 'turbo', 'run', 'build', '--output-logs=errors-only', ...names.map((name) => `--filter=${name}`)], work);
  console.log('built');

  step('Type-checking what is published (tsc --noEmit on each tsconfig.build.json: the build only strips types)');
  for (const dir of publishable.filter((dir) => existsSync(join(dir, 'tsconfig.build.json')))) {
    await sh(process.execPath, [join(work, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.build.json'), '--noEmit'], work);
  }
  console.log('no type errors');

  step('Packing and checking every publishable package (npm pack --dry-run, publint, attw --pack)');
  const privateNames = new Set(after.filter((pkg) => pkg.private).map((pkg) => pkg.name));
  const packed = [];
  for (const dir of publishable) {
    const pkg = readJson(join(dir, 'package.json'));
    const [pack] = JSON.parse(await sh('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], dir));
    const found = (await checkPackage(dir)).map(condense);
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const dep of Object.keys(pkg[field] ?? {}).filter((name) => privateNames.has(name))) {
        found.push(`${field} has ${dep}, a private workspace package that is never published: installing ${pkg.name} from the registry would fail`);
      }
    }
    packed.push({ name: pack.name, from: before.get(pkg.name), version: pack.version, files: pack.entryCount, size: pack.size, unpacked: pack.unpackedSize, problems: found });
    console.log(`${pack.name}: ${found.length ? `${found.length} problem(s)` : 'publint and attw pass'}`);
    for (const problem of found) console.log(`  - ${problem}`);
    for (const problem of found) problems.push(`${pack.name}: ${problem}`);
  }

  step(`Refreshing the released snapshots (${RELEASED_DIR}/), as the release does once it has published`);
  for (const { snapshot, status } of await updateSnapshots({ root: work })) console.log(`${relative(work, snapshot)}: ${status}`);
  console.log('At release time: after `npx changeset publish`, run `node scripts/check-breaking.mjs --update-snapshots` and commit');
  console.log(`${RELEASED_DIR}/ with the version commit, so that the next breaking-change check compares with what was published.`);

  step('What would be published (nothing was)');
  const rows = [['package', 'version', 'files', 'packed', 'unpacked', 'checks']];
  for (const p of packed) {
    rows.push([p.name, p.from === p.version ? p.version : `${p.from} -> ${p.version}`, String(p.files), kB(p.size), kB(p.unpacked), p.problems.length ? `${p.problems.length} problem(s)` : 'ok']);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
} catch (error) {
  problems.push(error.message);
} finally {
  if (keep) console.log(`\nThe temporary copy is kept at ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

console.log('');
if (problems.length) {
  console.log(`Release dry run: a release would fail (${((Date.now() - started) / 1000).toFixed(1)} s):`);
  for (const problem of problems) console.log(`- ${problem}`);
  process.exit(1);
}
console.log(`Release dry run passed in ${((Date.now() - started) / 1000).toFixed(1)} s. Nothing was published.`);
