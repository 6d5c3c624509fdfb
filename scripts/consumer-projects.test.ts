// The published packages as a user gets them: `npm pack` every publishable package, extract the tarballs
// into a temporary project's node_modules (their registry dependencies linked from this workspace, so
// nothing is downloaded), and compile and run the consumer projects of scripts/fixtures/consumers against
// an in-process sandbox: ESM NodeNext, CommonJS require (Node 20.19+), moduleResolution bundler (bundled
// with rolldown), and node10, which must fail with the message the client README documents.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, type Sandbox } from '@idv-toolkit/sandbox';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { publishablePackages } from './check-package.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'scripts/fixtures/consumers');
const packed: string[] = publishablePackages(join(root, 'packages')).map((dir: string) => dir.slice(root.length));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

type Run = { status: number | null; output: string };
function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', fail);
    child.on('close', (status) => done({ status, output }));
  });
}
const lastJson = (output: string) => JSON.parse(output.trim().split('\n').filter((line) => line.startsWith('{')).at(-1) ?? 'null');

let dir = '';
let sandbox: Sandbox;
let baseUrl = '';
const packages: Record<string, { dir: string; manifest: { name: string; engines?: { node?: string }; dependencies?: Record<string, string> } }> = {};
let compiled: Record<'esm' | 'cjs' | 'bundler' | 'node10', Run>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'consumers-'));
  sandbox = createSandbox();
  const [pack, url] = await Promise.all([
    run('npm', ['pack', ...packed.flatMap((p) => ['-w', p]), '--pack-destination', dir, '--json', '--loglevel=error'], { cwd: root }),
    sandbox.listen(0, '127.0.0.1'),
  ]);
  baseUrl = url;
  expect(pack.status, pack.output).toBe(0);
  const tarballs = (JSON.parse(pack.output.slice(pack.output.indexOf('['))) as { name: string; filename: string }[]);
  for (const { name, filename } of tarballs) {
    const target = join(dir, 'node_modules', name);
    mkdirSync(target, { recursive: true });
    const extract = await run('tar', ['-xzf', join(dir, filename), '-C', target, '--strip-components=1'], { cwd: dir });
    expect(extract.status, extract.output).toBe(0);
    packages[name] = { dir: target, manifest: JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) };
  }
  // Registry dependencies come from this workspace's install (the versions the lock file pins).
  const external = new Set([...Object.values(packages).flatMap(({ manifest }) => Object.keys(manifest.dependencies ?? {}))]);
  for (const name of external) {
    if (packages[name]) continue;
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  cpSync(fixtures, dir, { recursive: true });
  // The four compilations at once: most of this file's time.
  const [esm, cjs, bundler, node10] = await Promise.all(
    ['esm', 'cjs', 'bundler', 'node10'].map((name) => run(process.execPath, [tsc, '-p', join(dir, name, 'tsconfig.json')], { cwd: join(dir, name) })),
  );
  compiled = { esm: esm!, cjs: cjs!, bundler: bundler!, node10: node10! };
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed packages', () => {
  it('are every publishable package, each declaring the Node versions it runs on, which this Node satisfies', () => {
    expect(Object.keys(packages)).toEqual(expect.arrayContaining(['@idv-toolkit/client', '@idv-toolkit/types', '@idv-toolkit/sandbox']));
    expect(Object.keys(packages)).toHaveLength(packed.length);
    for (const { manifest } of Object.values(packages)) expect(manifest.engines?.node).toBe('>=20.19');
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true);
  });

  it('ship source maps whose every source resolves: inlined, or a file in the tarball', () => {
    let maps = 0;
    for (const { dir: packageDir } of Object.values(packages)) {
      const files = readdirSync(packageDir, { recursive: true }).map(String);
      for (const file of files.filter((name) => name.endsWith('.map'))) {
        maps++;
        const map = JSON.parse(readFileSync(join(packageDir, file), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
        map.sources.forEach((source, index) => {
          const inTarball = resolve(packageDir, dirname(file), source);
          const resolves = typeof map.sourcesContent?.[index] === 'string' || (inTarball.startsWith(packageDir) && existsSync(inTarball));
          expect(resolves, `${file}: ${source}`).toBe(true);
        });
      }
      // Every JavaScript file points at a map that is there.
      for (const file of files.filter((name) => name.endsWith('.js'))) {
        const link = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(packageDir, file), 'utf8'))?.[1];
        expect(link && existsSync(join(packageDir, dirname(file), link)), file).toBe(true);
      }
    }
    expect(maps).toBeGreaterThan(20);
  });
});

describe('an ESM project (module NodeNext)', () => {
  it('compiles strictly against the packed declarations', () => {
    expect(compiled.esm.output).toBe('');
    expect(compiled.esm.status).toBe(0);
  });

  it('runs against the sandbox', async () => {
    const { status, output } = await run(process.execPath, ['dist/index.js'], { cwd: join(dir, 'esm'), env: { IDV_BASE_URL: baseUrl } });
    expect(status, output).toBe(0);
    expect(lastJson(output)).toEqual({ id: expect.stringMatching(/^sess_/), kyc: 'object', event: 'session-change', record: '12AB34567', refused: 'wrong-key' });
  });

  it('gets stack traces that point into the TypeScript source with --enable-source-maps', async () => {
    const { status, output } = await run(process.execPath, ['--enable-source-maps', 'dist/stack.js'], { cwd: join(dir, 'esm') });
    expect(status, output).toBe(0);
    const at = /src\/callbacks\.ts:(\d+):\d+/.exec(output);
    expect(at, output).not.toBeNull();
    const map = JSON.parse(readFileSync(join(packages['@idv-toolkit/client']!.dir, 'dist/callbacks.js.map'), 'utf8')) as { sourcesContent: string[] };
    expect(map.sourcesContent[0]!.split('\n')[Number(at![1]) - 1]).toContain("new CallbackError('wrong-key'");
  });
});

describe('a CommonJS project', () => {
  it('compiles with module NodeNext to require() calls', () => {
    expect(compiled.cjs.output).toBe('');
    expect(compiled.cjs.status).toBe(0);
    expect(readFileSync(join(dir, 'cjs/dist/index.js'), 'utf8')).toContain('require("@idv-toolkit/client")');
  });

  it('runs on Node 20.19+ through require(esm), compiled from TypeScript and as plain .cjs', async () => {
    const env = { IDV_BASE_URL: baseUrl };
    const [compiledRun, plainRun] = await Promise.all([
      run(process.execPath, ['dist/index.js'], { cwd: join(dir, 'cjs'), env }),
      run(process.execPath, ['plain.cjs'], { cwd: join(dir, 'cjs'), env }),
    ]);
    expect(compiledRun.status, compiledRun.output).toBe(0);
    expect(lastJson(compiledRun.output)).toEqual({ id: expect.stringMatching(/^sess_/), event: 'session-change', loadedBy: 'function' });
    expect(plainRun.status, plainRun.output).toBe(0);
    expect(lastJson(plainRun.output)).toEqual({ id: expect.stringMatching(/^sess_/), same: true });
  });
});

describe('a bundler project (moduleResolution bundler)', () => {
  it('type-checks, bundles with rolldown and runs against the sandbox', async () => {
    expect(compiled.bundler.output).toBe('');
    expect(compiled.bundler.status).toBe(0);
    const bundle = await rolldown({ input: join(dir, 'bundler/index.ts'), cwd: join(dir, 'bundler'), platform: 'node', logLevel: 'silent' });
    await bundle.write({ file: join(dir, 'bundler/dist/bundle.mjs'), format: 'esm' });
    await bundle.close();
    const { status, output } = await run(process.execPath, ['dist/bundle.mjs'], { cwd: join(dir, 'bundler'), env: { IDV_BASE_URL: baseUrl } });
    expect(status, output).toBe(0);
    expect(lastJson(output)).toEqual({ id: expect.stringMatching(/^sess_/), contentType: 'application/pdf', type: 'session-change' });
  });
});

describe('a node10 project (moduleResolution node10)', () => {
  it('fails with the message the client README documents: the types are there, use node16, nodenext or bundler', () => {
    expect(compiled.node10.status).not.toBe(0);
    expect(compiled.node10.output).toContain("error TS2307: Cannot find module '@idv-toolkit/client' or its corresponding type declarations.");
    expect(compiled.node10.output).toContain("Consider updating to 'node16', 'nodenext', or 'bundler'.");
    const readme = readFileSync(join(root, 'packages/client/README.md'), 'utf8');
    expect(readme).toContain("Consider updating to 'node16', 'nodenext', or 'bundler'.");
  });
});
