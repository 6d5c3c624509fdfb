// `npm run check:breaking` as its user sees it: the exit code and what it prints, in a repository copy with
// one API, for each of its outcomes.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { DIFF_CONFIG, main, ROOT } from './check-breaking.mjs';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/breaking/released.json', import.meta.url), 'utf8'));
const tmp = mkdtempSync(join(tmpdir(), 'idv-check-breaking-cli-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A repository copy whose one API `fixture` is the released fixture changed by `edit`, with its snapshot. */
function repository(name: string, edit: (doc: any) => void): string {
  const root = join(tmp, name);
  mkdirSync(join(root, 'openapi/released'), { recursive: true });
  writeFileSync(join(root, 'openapi/redocly.yaml'), 'apis:\n  fixture@v1:\n    root: fixture.json\n');
  copyFileSync(join(ROOT, DIFF_CONFIG), join(root, DIFF_CONFIG));
  writeFileSync(join(root, 'openapi/released/fixture.json'), JSON.stringify(fixture, null, 2));
  const current = structuredClone(fixture);
  edit(current);
  writeFileSync(join(root, 'openapi/fixture.json'), JSON.stringify(current, null, 2));
  return root;
}

function changesets(name: string, files: Record<string, string[]>): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, lines] of Object.entries(files)) writeFileSync(join(dir, file), ['---', ...lines, '---', '', 'Summary.', ''].join('\n'));
  return dir;
}

/** Runs the command line; returns its exit code and everything it printed. */
async function check(argv: string[], options: { root: string; changesetDir?: string }): Promise<{ code: number; output: string }> {
  const lines: string[] = [];
  const code = await main(argv, { ...options, log: (line: string) => lines.push(line) });
  return { code, output: lines.join('\n') };
}

describe('the breaking-change check on the command line', () => {
  let breakingRoot: string;
  beforeAll(() => {
    breakingRoot = repository('breaking', (doc) => delete doc.paths['/delete-blacklist-record']);
  });

  it('--help prints the usage and the exit codes, and checks nothing', async () => {
    const { code, output } = await check(['--help'], { root: join(tmp, 'no-repository-here') });
    expect(code).toBe(0);
    expect(output).toBe('Usage: node scripts/check-breaking.mjs [--update-snapshots]\n  exit 0: no breaking change; 1: breaking changes; 2: the check could not run');
  });

  it('exits 0 with the report alone when nothing breaks', async () => {
    const root = repository('compatible', (doc) => {
      doc.components.schemas.AddBlacklistRecordResponse.properties.createdAt = { type: 'string', description: 'When the record was stored.' };
    });
    const { code, output } = await check([], { root, changesetDir: changesets('none', {}) });
    expect(code).toBe(0);
    expect(output).toMatch(/^Breaking changes against the last release \(openapi\/released\/\):\n\nfixture \(against openapi\/released\/fixture\.json\): no breaking change \(1 addition, /);
    expect(output).toMatch(/\n\nNo breaking change\.$/);
  });

  it('exits 1 and names the changeset to add when a breaking change has no major changeset', async () => {
    const { code, output } = await check([], { root: breakingRoot, changesetDir: changesets('minor-only', { 'minor.md': ['"@idv-toolkit/types": minor'] }) });
    expect(code).toBe(1);
    expect(output).toContain('fixture (against openapi/released/fixture.json): 1 breaking change');
    expect(output).toContain('1. POST /delete-blacklist-record (deleteBlacklistRecord)');
    expect(output).toContain('\n\n1 breaking change in all.\n\n1 breaking change in fixture must be released as a major version of @idv-toolkit/openapi, @idv-toolkit/types, @idv-toolkit/client');
    expect(output).toContain('Add the changeset .changeset/breaking-fixture.md:');
  });

  it('still exits 1, but says which pending changesets release it, when they bump every package to major', async () => {
    const dir = changesets('major', { 'remove-delete.md': ['"@idv-toolkit/openapi": major', '"@idv-toolkit/types": major', '"@idv-toolkit/client": major'] });
    const { code, output } = await check([], { root: breakingRoot, changesetDir: dir });
    expect(code).toBe(1);
    expect(output).toMatch(/\n\nPending changesets release them as major: remove-delete\.md\. They become the new baseline at release time \(--update-snapshots\)\.$/);
    expect(output).not.toContain('Add the changeset');
  });

  it('--update-snapshots rewrites the snapshots and prints what happened to each', async () => {
    const root = repository('update', (doc) => delete doc.paths['/delete-blacklist-record']);
    const { code, output } = await check(['--update-snapshots'], { root });
    expect(code).toBe(0);
    expect(output).toBe('openapi/released/fixture.json: updated');
    expect(JSON.parse(readFileSync(join(root, 'openapi/released/fixture.json'), 'utf8')).paths['/delete-blacklist-record']).toBeUndefined();
    expect(await check(['--update-snapshots'], { root })).toEqual({ code: 0, output: 'openapi/released/fixture.json: unchanged' });
  });

  it('fails with what redocly said when a description cannot be read, for the command to exit 2', async () => {
    const root = repository('broken', () => {});
    writeFileSync(join(root, 'openapi/fixture.json'), '{ "openapi": "3.1.0", "paths": ');
    await expect(check([], { root })).rejects.toThrow(/^redocly bundle failed: bundling openapi\/fixture\.json.*\nFailed to parse API description at .*fixture\.json:\n {2}- unexpected end/);
  });
});
