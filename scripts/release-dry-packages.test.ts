// What `npm run release:dry` packs and lists as published: every workspace that is not private, wherever it
// lives (issue 16: @idv-toolkit/openapi, in openapi/ rather than packages/, was left out of the table).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { publishableWorkspaces } from './check-package.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'idv-release-packages-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const write = (file: string, json: object) => {
  mkdirSync(join(tmp, file, '..'), { recursive: true });
  writeFileSync(join(tmp, file), JSON.stringify(json));
};

describe('publishableWorkspaces', () => {
  it("are this repository's public workspaces as npm itself lists them, @idv-toolkit/openapi among them", () => {
    const npmSays = JSON.parse(execFileSync('npm', ['query', '.workspace', '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { name: string; private?: boolean }[];
    const names = (publishableWorkspaces(root) as string[]).map((dir) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name);
    expect(names.sort()).toEqual(npmSays.filter((pkg) => !pkg.private).map((pkg) => pkg.name).sort());
    expect(names).toContain('@idv-toolkit/openapi');
  });

  it('follow the workspaces field, a folder of its own and a glob alike, leaving out private packages and folders without one', () => {
    write('package.json', { name: 'root', private: true, workspaces: ['spec', 'packages/*'] });
    write('spec/package.json', { name: 'spec' });
    write('packages/a/package.json', { name: 'a' });
    write('packages/b/package.json', { name: 'b', private: true });
    mkdirSync(join(tmp, 'packages/c'), { recursive: true });
    expect((publishableWorkspaces(tmp) as string[]).map((dir) => relative(tmp, dir))).toEqual(['spec', 'packages/a']);
  });
});
