import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const compiler = fileURLToPath(new URL('compile.mjs', import.meta.url));
let dir = '';

/** A package folder holding `files` under src/, compiled; returns the run's exit status and stderr. */
function compile(files: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), 'compile-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, 'src', name, '..'), { recursive: true });
    writeFileSync(join(dir, 'src', name), text);
  }
  const run = spawnSync(process.execPath, [compiler], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}
const output = (name: string) => readFileSync(join(dir, 'dist', name), 'utf8');

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/compile.mjs', () => {
  it('emits JavaScript and declarations with source maps that point back to src', () => {
    const run = compile({
      'index.ts': "import type { Shape } from './shape.js';\nexport { area } from './shape.js';\nexport const unit: Shape['unit'] = 'cm';\n",
      'shape.ts': 'export type Shape = { side: number; unit: string };\nexport function area(shape: Shape): number {\n  return shape.side ** 2;\n}\n',
    });
    expect(run).toEqual({ status: 0, stderr: '' });
    expect(output('shape.js')).toContain('export function area(shape) {');
    expect(output('shape.js')).not.toContain('type Shape');
    expect(output('shape.d.ts')).toContain('export declare function area(shape: Shape): number;');
    expect(output('index.js')).not.toContain('import type');
    expect(output('index.js')).toMatch(/\/\/# sourceMappingURL=index\.js\.map\n$/);
    expect(JSON.parse(output('shape.js.map'))).toMatchObject({ version: 3, file: 'shape.js', sources: ['../src/shape.ts'] });
    expect(JSON.parse(output('shape.d.ts.map'))).toMatchObject({ version: 3, file: 'shape.d.ts', sources: ['../src/shape.ts'] });
  });

  it('inlines each source in its maps, so that they resolve without src/ (packages ship dist/ only)', () => {
    const source = 'export function area(side: number): number {\n  return side ** 2;\n}\n';
    compile({ 'shape.ts': source, 'media/tar.ts': 'export const block: number = 512;\n' });
    for (const map of ['shape.js.map', 'shape.d.ts.map']) expect(JSON.parse(output(map)).sourcesContent).toEqual([source]);
    expect(JSON.parse(output('media/tar.js.map'))).toMatchObject({ sources: ['../../src/media/tar.ts'], sourcesContent: ['export const block: number = 512;\n'] });
  });

  it('keeps nested folders and leaves tests and their helpers out', () => {
    const run = compile({
      'media/tar.ts': 'export const block: number = 512;\n',
      'media/tar.test.ts': "import { block } from './tar.js';\n",
      'types.test-d.ts': 'export {};\n',
      'fake.test-helper.ts': 'export {};\n',
    });
    expect(run.status).toBe(0);
    expect(existsSync(join(dir, 'dist/media/tar.js'))).toBe(true);
    expect(existsSync(join(dir, 'dist/media/tar.test.js'))).toBe(false);
    expect(existsSync(join(dir, 'dist/types.test-d.js'))).toBe(false);
    expect(existsSync(join(dir, 'dist/fake.test-helper.js'))).toBe(false);
  });

  it('keeps a script with a shebang executable', () => {
    compile({ 'cli.ts': '#!/usr/bin/env node\nconsole.log(1);\n', 'lib.ts': 'export {};\n' });
    expect(output('cli.js').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(join(dir, 'dist/cli.js')).mode & 0o111).not.toBe(0);
    expect(statSync(join(dir, 'dist/lib.js')).mode & 0o111).toBe(0);
  });

  it('fails, naming the file and line, on an export whose declaration needs inference', () => {
    const run = compile({ 'index.ts': 'export const twice = (n: number) => n * 2;\n' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('TS9007');
    expect(run.stderr).toContain('index.ts:1');
  });

  it('swaps dist/ in whole: a failed build leaves the previous output, and no staging folder stays behind', () => {
    compile({ 'index.ts': 'export const unit: string = "cm";\n' });
    writeFileSync(join(dir, 'src/index.ts'), 'export const unit: string = "mm";\n');
    writeFileSync(join(dir, 'src/broken.ts'), 'export const twice = (n: number) => n * 2;\n');
    expect(spawnSync(process.execPath, [compiler], { cwd: dir }).status).toBe(1);
    expect(output('index.js')).toContain('export const unit = "cm";');
    expect(existsSync(join(dir, 'dist/broken.js'))).toBe(false);
    rmSync(join(dir, 'src/broken.ts'));
    expect(spawnSync(process.execPath, [compiler], { cwd: dir }).status).toBe(0);
    expect(output('index.js')).toContain('export const unit = "mm";');
    expect(readdirSync(dir).sort()).toEqual(['dist', 'src']);
  });

  it('drops output of sources that no longer exist', () => {
    compile({ 'old.ts': 'export {};\n' });
    rmSync(join(dir, 'src/old.ts'));
    writeFileSync(join(dir, 'src/new.ts'), 'export {};\n');
    expect(spawnSync(process.execPath, [compiler], { cwd: dir }).status).toBe(0);
    expect(existsSync(join(dir, 'dist/old.js'))).toBe(false);
    expect(existsSync(join(dir, 'dist/new.js'))).toBe(true);
  });

  it("writes Oxc's runtime helper inline (a tagged template holding </script>), so the output imports no package it lacks", async () => {
    const run = compile({
      'page.ts':
        'const tag = (strings: TemplateStringsArray, ...values: unknown[]): string => strings.raw.join(`|${values.length}|`);\n' +
        'export const page: string = tag`<script></script>${1}\\n`;\nexport const again = (): string => tag`</script>${2}`;\n',
    });
    expect(run).toEqual({ status: 0, stderr: '' });
    expect(output('page.js')).not.toContain('@oxc-project/runtime');
    const { page, again } = await import(pathToFileURL(join(dir, 'dist/page.js')).href);
    expect(page).toBe('<script></script>|1|\\n');
    expect(again()).toBe('</script>|1|');
  });

  it('refuses a runtime helper it cannot inline, naming the file', async () => {
    const { inlineRuntimeHelpers } = await import('./compile.mjs');
    const { problems } = inlineRuntimeHelpers('import _objectSpread2 from "@oxc-project/runtime/helpers/objectSpread2";\n', { objectSpread2: '@oxc-project/runtime/helpers/objectSpread2' }, 'src/a.ts');
    expect(problems).toEqual([expect.stringMatching(/^src\/a\.ts: Oxc's output imports @oxc-project\/runtime\/helpers\/objectSpread2, which no package depends on/)]);
  });
});

