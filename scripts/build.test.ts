import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build, statKey } from './build.mjs';

// A repository like ours in a temporary folder: a spec, a package with sources, tsconfig and package.json,
// and a fake turbo that counts its runs and writes the package's dist/ from its sources.
let root = '';
let runs = '';

const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
const turboRuns = () => readFileSync(runs, 'utf8').split('\n').filter(Boolean);

/** `npm run build` as the script runs it; `racy: 0` trusts stats at once (see racyMs in build.mjs). */
const runBuild = (args: string[] = [], racy = 0) => build(args, { root, turbo: join(root, 'fake-turbo.mjs'), racy });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-check-'));
  runs = join(root, '..', `${root.split('/').at(-1)}-runs.log`);
  writeFileSync(runs, '');
  write('.gitignore', 'dist/\n.turbo/\nnode_modules/\n');
  write('package.json', JSON.stringify({ name: 'root', private: true, workspaces: ['openapi', 'packages/*'] }));
  write('turbo.json', JSON.stringify({ tasks: { build: { dependsOn: ['^build'], outputs: ['dist/**'], env: ['IDV_BUILD_FLAVOUR'] } } }));
  write('openapi/package.json', JSON.stringify({ name: 'openapi', scripts: { build: 'bundle' } }));
  write('openapi/current/openapi.yaml', 'openapi: 3.1.0\ninfo: { title: A, version: 1.0.0 }\n');
  write('packages/client/package.json', JSON.stringify({ name: 'client', scripts: { build: 'compile' } }));
  write('packages/client/tsconfig.json', '{ "compilerOptions": { "strict": true } }\n');
  write('packages/client/src/index.ts', 'export const a = 1;\n');
  write(
    'fake-turbo.mjs',
    `#!/usr/bin/env node
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(runs)}, process.argv.slice(2).join(' ') + '\\n');
if (process.env.FAKE_TURBO_FAIL) process.exit(1);
mkdirSync('packages/client/dist', { recursive: true });
writeFileSync('packages/client/dist/index.js', readFileSync('packages/client/src/index.ts', 'utf8'));
mkdirSync('openapi/dist', { recursive: true });
const spec = 'openapi/current/openapi.yaml';
writeFileSync('openapi/dist/current.json', JSON.stringify(existsSync(spec) ? readFileSync(spec, 'utf8') : null));
`,
  );
  chmodSync(join(root, 'fake-turbo.mjs'), 0o755);
  git('init', '-q');
  git('add', '.');
});

afterEach(() => {
  delete process.env.IDV_BUILD_FLAVOUR;
  delete process.env.FAKE_TURBO_FAIL;
  rmSync(root, { recursive: true, force: true });
  rmSync(runs, { force: true });
});

/** Builds once, makes a change, and says whether the next build started turbo again. */
function rebuildsAfter(change: () => void, racy = 0) {
  expect(runBuild([], racy)).toBe(0);
  const before = turboRuns().length;
  change();
  expect(runBuild([], racy)).toBe(0);
  return turboRuns().length > before;
}

describe('scripts/build.mjs (npm run build)', () => {
  it('starts turbo for a first build, then not while nothing changed', () => {
    expect(runBuild()).toBe(0);
    expect(runBuild()).toBe(0);
    expect(runBuild()).toBe(0);
    expect(turboRuns()).toEqual(['run build']);
  });

  it('sees a change to a spec file, a source file, a tsconfig or a package.json', () => {
    expect(rebuildsAfter(() => write('openapi/current/openapi.yaml', 'openapi: 3.1.0\ninfo: { title: B, version: 1.0.0 }\n'))).toBe(true);
    expect(rebuildsAfter(() => write('packages/client/src/index.ts', 'export const a = 2;\n'))).toBe(true);
    expect(rebuildsAfter(() => write('packages/client/tsconfig.json', '{ "compilerOptions": { "strict": false } }\n'))).toBe(true);
    expect(rebuildsAfter(() => write('packages/client/package.json', JSON.stringify({ name: 'client', scripts: { build: 'compile --fast' } })))).toBe(true);
    expect(rebuildsAfter(() => write('turbo.json', JSON.stringify({ tasks: { build: { outputs: ['dist/**'] } } })))).toBe(true);
    expect(readFileSync(join(root, 'packages/client/dist/index.js'), 'utf8')).toBe('export const a = 2;\n');
  });

  it('sees a save by rename, a deleted file and a new one, tracked or not', () => {
    expect(
      rebuildsAfter(() => {
        // An editor's save: the new text in a temporary file, renamed over the old one (same size).
        write('packages/client/src/index.ts.tmp', 'export const b = 1;\n');
        renameSync(join(root, 'packages/client/src/index.ts.tmp'), join(root, 'packages/client/src/index.ts'));
      }),
    ).toBe(true);
    expect(rebuildsAfter(() => write('packages/client/src/new.ts', 'export const c = 3;\n'))).toBe(true);
    expect(rebuildsAfter(() => write('openapi/current/paths/new.yaml', 'post: {}\n'))).toBe(true);
    expect(rebuildsAfter(() => rmSync(join(root, 'openapi/current/openapi.yaml')))).toBe(true);
    expect(rebuildsAfter(() => rmSync(join(root, 'openapi/current/paths/new.yaml')))).toBe(true);
    // Gone from the folder but still in git's index: no change once built without it.
    expect(rebuildsAfter(() => undefined)).toBe(false);
  });

  it('sees a same-size edit whose time stamp was put back', () => {
    const file = join(root, 'packages/client/src/index.ts');
    // Whole seconds, which utimes can put back exactly (a tool that keeps time stamps: rsync -t, cp -p, tar).
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const changed = rebuildsAfter(() => {
      writeFileSync(file, 'export const z = 1;\n');
      utimesSync(file, 1_700_000_000, 1_700_000_000);
    });
    expect(changed).toBe(true);
  });

  it('reads a file changed just before a build again, even if its stats look the same (racy stats)', () => {
    const path = 'packages/client/src/index.ts';
    const changed = rebuildsAfter(() => {
      writeFileSync(join(root, path), 'export const z = 1;\n');
      // Two saves within one tick of the file system's clock leave the same stats: make them the same.
      const record = join(root, '.turbo/up-to-date.json');
      const state = JSON.parse(readFileSync(record, 'utf8'));
      state.inputs[path].stat = statKey(statSync(join(root, path), { bigint: true }));
      writeFileSync(record, JSON.stringify(state));
    }, 2_000);
    expect(changed).toBe(true);
  });

  it('does not start turbo for a file rewritten with the same bytes, nor for an ignored file', () => {
    expect(rebuildsAfter(() => write('packages/client/src/index.ts', 'export const a = 1;\n'))).toBe(false);
    expect(rebuildsAfter(() => write('packages/client/dist/notes.txt', 'ignored by git, but an output: a change'))).toBe(true);
    expect(rebuildsAfter(() => write('node_modules/x/index.js', 'ignored'))).toBe(false);
  });

  it('rebuilds when an output was deleted or changed', () => {
    expect(rebuildsAfter(() => rmSync(join(root, 'packages/client/dist'), { recursive: true }))).toBe(true);
    expect(rebuildsAfter(() => write('openapi/dist/current.json', '"tampered"'))).toBe(true);
    expect(readFileSync(join(root, 'openapi/dist/current.json'), 'utf8')).toContain('openapi: 3.1.0');
  });

  it('rebuilds when an environment variable named in turbo.json changes', () => {
    expect(rebuildsAfter(() => (process.env.IDV_BUILD_FLAVOUR = 'other'))).toBe(true);
    expect(rebuildsAfter(() => (process.env.SOME_OTHER_VARIABLE_NOT_IN_TURBO_JSON = 'x'))).toBe(false);
    delete process.env.SOME_OTHER_VARIABLE_NOT_IN_TURBO_JSON;
  });

  it('outside a git repository, starts turbo every time', () => {
    rmSync(join(root, '.git'), { recursive: true, force: true });
    expect(runBuild()).toBe(0);
    expect(runBuild()).toBe(0);
    expect(turboRuns()).toEqual(['run build', 'run build']);
  });

  it('after a failed build, starts turbo again; with arguments, always starts it and records nothing', () => {
    expect(runBuild()).toBe(0);
    process.env.FAKE_TURBO_FAIL = '1';
    write('packages/client/src/index.ts', 'export const a = 3;\n');
    expect(runBuild()).toBe(1);
    delete process.env.FAKE_TURBO_FAIL;
    expect(runBuild()).toBe(0);
    expect(runBuild()).toBe(0);
    expect(runBuild(['--force'])).toBe(0);
    expect(runBuild(['--filter=client'])).toBe(0);
    expect(turboRuns()).toEqual(['run build', 'run build', 'run build', 'run build --force', 'run build --filter=client']);
    // A build with arguments leaves no record, so the next plain build starts turbo.
    expect(runBuild()).toBe(0);
    expect(turboRuns()).toHaveLength(6);
  });
});
