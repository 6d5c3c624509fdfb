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
import { bundleApi, diffReport, diffRunsIn, REDOCLY_CONFIG, ROOT } from './check-breaking.mjs';
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
  it('diff in this process with the installed @redocly/cli (else CLI_BUILD in check-breaking.mjs names another build)', async () => {
    expect(await diffRunsIn()).toBe('in-process');
  });

  it('report a diff as `redocly diff --format json` does: every change, its impact, verdicts and summary', async () => {
    const revision = variant('changed', (doc) => {
      delete doc.paths['/delete-blacklist-record'];
      doc.components.schemas.NewBlacklistRecord.required.push('notes');
      doc.components.schemas.AddBlacklistRecordResponse.properties.createdAt = { type: 'string' };
    });
    const [inProcess, child] = await Promise.all([diffReport(released, revision), diffReport(released, revision, { via: 'cli' })]);
    expect(inProcess.changes.length).toBeGreaterThan(2);
    expect(inProcess.summary.major).toBeGreaterThan(0);
    // Files are named relative to where each ran: by their names alone, everything else is the same.
    const named = (report: object) => JSON.parse(JSON.stringify(report, (key, value) => (key === 'file' || key === 'base' || key === 'revision') && typeof value === 'string' ? basename(value) : value));
    expect(named(inProcess)).toEqual(named(child));
  });

  it('bundle an API of openapi/redocly.yaml into the same bytes as `redocly bundle --output`', async () => {
    const [inProcess, child] = [join(tmp, 'sandbox.json'), join(tmp, 'sandbox-cli.json')];
    await bundleApi('sandbox@v1', inProcess);
    execFileSync(process.execPath, [cli, 'bundle', 'sandbox@v1', '--config', REDOCLY_CONFIG, '--output', child], { cwd: ROOT, env: quietEnv, stdio: 'ignore' });
    expect(readFileSync(inProcess, 'utf8')).toBe(readFileSync(child, 'utf8'));
  });

  it('fail with what redocly says: a path that is not there, an API not named, a $ref that cannot be resolved', async () => {
    await expect(diffReport(join(tmp, 'not-there.json'), released)).rejects.toThrow(/^redocly diff failed: .*not-there\.json does not exist or is invalid\.\nPlease provide a valid path\.$/);
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
