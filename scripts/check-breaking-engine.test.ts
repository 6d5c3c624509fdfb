// check-breaking.mjs bundles and diffs in its own process (a `redocly` child process per step made the check
// and its tests slow). What it must keep: the bundle and the diff report that the `redocly` command line
// makes, byte for byte and field for field, and redocly's own words when a step fails.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { bundleApi, compareDocuments, DIFF_CONFIG, diffReport, REDOCLY_CONFIG, ROOT } from './check-breaking.mjs';
// @ts-expect-error -- a plain ESM script without type declarations
import { quietEnv } from './run.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'idv-check-breaking-engine-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');
const released = new URL('./fixtures/breaking/released.json', import.meta.url).pathname;
const fixture = JSON.parse(readFileSync(released, 'utf8'));

function variant(name: string, edit: (doc: any) => void): string {
  const doc = structuredClone(fixture);
  edit(doc);
  const file = join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

describe('the redocly steps of the breaking-change check', () => {
  it('report a diff as `redocly diff --format json --output` does: every change, its impact, verdicts and summary', async () => {
    const revision = variant('changed', (doc) => {
      delete doc.paths['/delete-blacklist-record'];
      doc.components.schemas.NewBlacklistRecord.required.push('notes');
      doc.components.schemas.AddBlacklistRecordResponse.properties.createdAt = { type: 'string' };
    });
    const output = join(tmp, 'cli-report.json');
    execFileSync(process.execPath, [cli, 'diff', released, revision, '--config', join(ROOT, DIFF_CONFIG), '--format', 'json', '--fail-on', 'none', '--output', output], { cwd: tmp, env: quietEnv, stdio: 'ignore' });
    const report = await diffReport(released, revision);
    expect(report.changes.length).toBeGreaterThan(2);
    expect(report.summary.major).toBeGreaterThan(0);
    // Files are named relative to where each ran: by their names alone, everything else is the same.
    const named = (value: object) => JSON.parse(JSON.stringify(value, (key, item) => (key === 'file' || key === 'base' || key === 'revision') && typeof item === 'string' ? basename(item) : item));
    expect(named(report)).toEqual(named(JSON.parse(readFileSync(output, 'utf8'))));
  });

  it('rate changes by the diff configuration given: a rule set to minor no longer breaks', async () => {
    const revision = variant('removed-path', (doc) => delete doc.paths['/delete-blacklist-record']);
    const config = join(tmp, 'path-removed-minor.yaml');
    writeFileSync(config, 'extends:\n  - diff-recommended\ndiff:\n  path-removed: minor\n');
    expect((await compareDocuments(released, revision)).breaking.map((change: { rule: string }) => change.rule)).toEqual(['path-removed']);
    const lowered = await compareDocuments(released, revision, { config });
    expect(lowered.breaking).toEqual([]);
    expect(lowered.summary).toMatchObject({ major: 0, minor: 1 });
  });

  it('bundle an API of openapi/redocly.yaml into the same bytes as `redocly bundle --output`', async () => {
    const [inProcess, child] = [join(tmp, 'sandbox.json'), join(tmp, 'sandbox-cli.json')];
    await bundleApi('sandbox@v1', inProcess);
    execFileSync(process.execPath, [cli, 'bundle', 'sandbox@v1', '--config', REDOCLY_CONFIG, '--output', child], { cwd: ROOT, env: quietEnv, stdio: 'ignore' });
    expect(readFileSync(inProcess, 'utf8')).toBe(readFileSync(child, 'utf8'));
  });

  it('fail with what redocly says: a path that is not there, an API not named, a $ref that cannot be resolved', async () => {
    await expect(diffReport(join(tmp, 'not-there.json'), released)).rejects.toThrow(/^redocly diff failed: .*not-there\.json does not exist or is invalid\.\nPlease provide a valid path\.$/);
    // A revision with a $ref to nowhere: redocly's problem, its warning, and its verdict, in that order.
    const unresolved = variant('unresolved', (doc) => (doc.paths['/delete-blacklist-record'].post.responses['200'] = { $ref: './missing.json' }));
    await expect(diffReport(released, unresolved)).rejects.toThrow(
      /^redocly diff failed: \[1\] .*unresolved\.json:\d+:\d+ at #\/paths\/~1delete-blacklist-record\/post\/responses\/200\nCan't resolve \$ref: ENOENT[^]*\n⚠️ {2}The problems above leave parts of the descriptions unresolved[^]*\n❌ The revision has errors, so the diff can miss breaking changes\. Fix the problems above\.\nDiff failed\.$/,
    );
    const root = join(tmp, 'repository');
    mkdirSync(join(root, 'openapi'), { recursive: true });
    writeFileSync(join(root, REDOCLY_CONFIG), 'apis:\n  fixture@v1:\n    root: fixture.json\n  gone@v1:\n    root: gone/openapi.yaml\n');
    await expect(bundleApi('gone@v1', join(tmp, 'never.json'), { root })).rejects.toThrow(/^redocly bundle failed: openapi\/gone\/openapi\.yaml does not exist or is invalid\.\nPlease provide a valid path\.$/);
    await expect(bundleApi('other@v1', join(tmp, 'never.json'), { root })).rejects.toThrow(/^redocly bundle failed: openapi\/redocly\.yaml names no API other@v1$/);
    writeFileSync(join(root, 'openapi/fixture.json'), JSON.stringify({ ...fixture, paths: { '/a': { post: { responses: { 200: { $ref: './missing.json' } } } } } }));
    await expect(bundleApi('fixture@v1', join(tmp, 'never.json'), { root })).rejects.toThrow(
      /^redocly bundle failed: bundling openapi\/fixture\.json using configuration for api 'fixture@v1'\.\.\.\n {2}- Can't resolve \$ref: ENOENT: no such file or directory '.*missing\.json'$/,
    );
  });
});
