// Type-checks every package with its whole tsconfig.json, tests included: the build compiles only the
// published sources, so a type error in a test or helper would otherwise go unnoticed.
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

  it.each(packages)('packages/%s has no type error', (name) => {
    const run = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}packages/${name}/tsconfig.json`, '--noEmit'], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
