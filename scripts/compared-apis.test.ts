// Which APIs the breaking-change check compares: every alias openapi/redocly.yaml names, by the name before
// its `@version`; none when the file names none. Where each one's released snapshot lives.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { listApis, ROOT, snapshotPath } from './check-breaking.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'idv-compared-apis-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function repository(name: string, redoclyYaml: string): string {
  const root = join(tmp, name);
  mkdirSync(join(root, 'openapi'), { recursive: true });
  writeFileSync(join(root, 'openapi/redocly.yaml'), redoclyYaml);
  return root;
}

describe('the compared APIs', () => {
  it('are the aliases of redocly.yaml, named by what comes before @', () => {
    const root = repository('two', 'apis:\n  current@v1:\n    root: current.yaml\n  legacy@v2:\n    root: legacy.yaml\n');
    expect(listApis(root)).toEqual([{ alias: 'current@v1', name: 'current' }, { alias: 'legacy@v2', name: 'legacy' }]);
  });

  it('are none when redocly.yaml names none, or is empty', () => {
    expect(listApis(repository('rules-only', 'rules:\n  no-unused-components: error\n'))).toEqual([]);
    expect(listApis(repository('empty', ''))).toEqual([]);
  });

  it("are the repository's own by default, each with its snapshot under openapi/released/", () => {
    expect(listApis().map((api: { name: string }) => api.name)).toEqual(expect.arrayContaining(['current', 'legacy']));
    expect(snapshotPath('current')).toBe(join(ROOT, 'openapi/released/current.json'));
    expect(snapshotPath('x', '/repo')).toBe(join('/repo', 'openapi/released/x.json'));
  });
});
