// The type check of every package. The build (scripts/compile.mjs) only strips types, so this is where
// type errors are caught: tsconfig.build.json checks the published sources as they ship (with only the
// type libraries each package may use, and isolatedDeclarations, which the build's declaration output
// relies on); tsconfig.json checks the sources with their tests and helpers.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = readdirSync(`${root}packages`).filter((name) => existsSync(`${root}packages/${name}/tsconfig.json`));

describe('type-checking', () => {
  it('covers the TypeScript packages', () => {
    expect(packages).toEqual(expect.arrayContaining(['types', 'client', 'sandbox']));
  });

  const configs = packages.flatMap((name) => ['tsconfig.build.json', 'tsconfig.json'].map((config) => `packages/${name}/${config}`));
  it.each(configs.filter((config) => existsSync(`${root}${config}`)))('%s has no type error', (config) => {
    const run = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}${config}`, '--noEmit'], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
