// The checks a publishable package must pass before a release: publint (package.json and files) and
// Are The Types Wrong (`attw --pack`: the packed package resolves with types from ESM consumers).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

const attwCli = join(dirname(createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json')), 'dist/index.js');

export async function checkPackage(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const { messages } = await publint({ pkgDir: dir, strict: true });
  const problems = messages.map((message) => `publint: ${formatMessage(message, pkg) ?? message.code}`);
  // ESM only. CommonJS callers load it through require(esm) (Node 20.19+, TypeScript 5.8+ `nodenext`), which
  // scripts/consumer-projects.test.ts runs; attw's CJS modes assume older TypeScript, so they are not checked.
  // attw's own script in this Node rather than through npx (an npm process more per package), and in the
  // background, so that callers can check several packages at once.
  const attw = await new Promise((resolve) => {
    execFile(process.execPath, [attwCli, '--pack', '.', '--profile', 'esm-only', '--format', 'ascii'], { cwd: dir, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ failed: error !== null, stdout, stderr: stderr || (error?.message ?? '') }),
    );
  });
  if (attw.failed) problems.push(`attw --pack: ${attw.stdout.trim() || attw.stderr.trim()}`);
  return problems;
}
