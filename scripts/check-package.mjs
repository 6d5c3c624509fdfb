// The checks a publishable package must pass before a release: publint (package.json and files) and
// Are The Types Wrong (`attw --pack`: the packed package resolves with types from ESM consumers).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

export function publishablePackages(root = 'packages') {
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((dir) => {
      try {
        return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private !== true;
      } catch {
        return false;
      }
    });
}

/**
 * The folders of every workspace of the repository at `root` that is not private: what a release publishes.
 * From the root package.json's `workspaces`, so a public package outside packages/ (openapi/) is not missed.
 */
export function publishableWorkspaces(root) {
  const patterns = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces ?? [];
  const dirs = patterns.flatMap((pattern) => (pattern.endsWith('/*') ? readdirSync(join(root, pattern.slice(0, -2))).sort().map((name) => join(root, pattern.slice(0, -2), name)) : [join(root, pattern)]));
  return dirs.filter((dir) => {
    try {
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private !== true;
    } catch {
      return false;
    }
  });
}

export async function checkPackage(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const { messages } = await publint({ pkgDir: dir, strict: true });
  const problems = messages.map((message) => `publint: ${formatMessage(message, pkg) ?? message.code}`);
  // ESM only. CommonJS callers load it through require(esm) (Node 20.19+, TypeScript 5.8+ `nodenext`), which
  // scripts/consumer-projects.test.ts runs; attw's CJS modes assume older TypeScript, so they are not checked.
  const attw = spawnSync('npx', ['--no-install', 'attw', '--pack', '.', '--profile', 'esm-only', '--format', 'ascii'], { cwd: dir, encoding: 'utf8' });
  if (attw.status !== 0) problems.push(`attw --pack: ${attw.stdout.trim() || attw.stderr.trim()}`);
  return problems;
}
