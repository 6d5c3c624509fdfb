import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { compareDocuments, DIFF_CONFIG, findBreakingChanges, formatChange, formatReport, ROOT, updateSnapshots } from './check-breaking.mjs';
// @ts-expect-error -- a plain ESM script without type declarations
import { AFFECTED_BY_BREAKING_CHANGES, checkBreakingGate } from './breaking-gate.mjs';

type Change = { api: string; operation: string; where: string; rule: string; what: string; why: string };
type Comparison = { breaking: Change[]; summary: { major?: number; minor?: number; patch?: number } };

const fixture = JSON.parse(readFileSync(new URL('./fixtures/breaking/released.json', import.meta.url), 'utf8'));
const tmp = mkdtempSync(join(tmpdir(), 'idv-check-breaking-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the fixture, changed by `edit`, written into the temp dir; returns its path. */
function variant(name: string, edit: (doc: any) => void = () => {}): string {
  const doc = structuredClone(fixture);
  edit(doc);
  const file = join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

/** A .changeset-like folder holding the given changesets (file name -> front matter lines). */
function changesetDir(name: string, changesets: Record<string, string[]>): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), '{}');
  writeFileSync(join(dir, 'README.md'), '# Changesets\n');
  for (const [file, lines] of Object.entries(changesets)) writeFileSync(join(dir, file), ['---', ...lines, '---', '', 'Summary.', ''].join('\n'));
  return dir;
}

describe('breaking changes between copies of a document', () => {
  const base = join(tmp, 'released.json');
  const compare = (revision: string): Promise<Comparison> => compareDocuments(base, revision, { api: 'fixture' });
  // Each test runs its own comparison rather than sharing ones made before all tests, so that a mutation
  // tool sees which test reaches which line.
  const optionalProperty = () => compare(variant('optional-property', (doc) => {
    doc.components.schemas.AddBlacklistRecordResponse.properties.createdAt = { type: 'string', format: 'date-time', description: 'When the record was stored.' };
  }));
  const removedOperation = () => compare(variant('removed-operation', (doc) => delete doc.paths['/delete-blacklist-record']));
  const requiredField = () => compare(variant('required-field', (doc) => doc.components.schemas.NewBlacklistRecord.required.push('notes')));
  const responseEnumValue = () => compare(variant('response-enum-value', (doc) => doc.components.schemas.AddBlacklistRecordError.properties.argumentError.enum.push('record-locked')));

  beforeAll(() => {
    copyFileSync(new URL('./fixtures/breaking/released.json', import.meta.url), base);
  });

  it('an unchanged copy has no change at all', async () => {
    const same = await compare(variant('unchanged'));
    expect(same.breaking).toEqual([]);
    expect(same.summary).toMatchObject({ major: 0, minor: 0, patch: 0 });
  });

  it('adding an optional response property is seen, is not breaking, and passes the gate without any changeset', async () => {
    const optional = await optionalProperty();
    expect(optional.summary.minor).toBeGreaterThan(0);
    expect(optional.breaking).toEqual([]);
    expect(checkBreakingGate(optional.breaking, { changesetDir: changesetDir('no-changesets', {}) })).toMatchObject({ ok: true, affected: [] });
  });

  it('removing an operation is breaking, names the operation and says why', async () => {
    const removed = await removedOperation();
    expect(removed.breaking).toHaveLength(1);
    const [change] = removed.breaking;
    expect(change).toMatchObject({ api: 'fixture', rule: 'path-removed', operation: 'POST /delete-blacklist-record (deleteBlacklistRecord)' });
    expect(change.what).toContain('/delete-blacklist-record');
    expect(formatChange(change)).toMatch(/What changed: .*removed[\s\S]*Why it breaks callers: Callers of this operation now get an error/);
  });

  it('making a request field required is breaking for the request', async () => {
    const required = await requiredField();
    expect(required.breaking).toHaveLength(1);
    expect(required.breaking[0]).toMatchObject({
      rule: 'required-properties-added',
      operation: 'POST /add-blacklist-record (addBlacklistRecord)',
      where: 'request body (application/json): query',
    });
    expect(required.breaking[0].what).toContain('notes');
    expect(required.breaking[0].why).toMatch(/requests that leave these fields out are now rejected/);
  });

  it('a new enum value in a response is breaking for the callers that read it', async () => {
    const enumValue = await responseEnumValue();
    expect(enumValue.breaking.map((change) => [change.rule, change.where])).toEqual([['enum-values-added', 'response 400 (application/json): argumentError']]);
    expect(enumValue.breaking[0].why).toMatch(/meet a value they do not handle/);
  });

  it('the gate fails without major changesets and names the changeset to add; adding it passes', async () => {
    const { breaking } = await removedOperation();
    const dir = changesetDir('minor-changesets', { 'new-field.md': ['"@idv-toolkit/types": minor', '"@idv-toolkit/client": minor'] });
    const gate = checkBreakingGate(breaking, { changesetDir: dir });
    expect(gate.ok).toBe(false);
    expect(gate.missing).toEqual(AFFECTED_BY_BREAKING_CHANGES);
    expect(gate.suggestion.file).toBe('breaking-fixture.md');
    expect(gate.message).toContain('Add the changeset .changeset/breaking-fixture.md:');
    for (const pkg of ['@idv-toolkit/openapi', '@idv-toolkit/types', '@idv-toolkit/client']) expect(gate.message).toContain(`"${pkg}": major`);
    expect(gate.message).toContain('@idv-toolkit/types (minor in new-field.md)');

    writeFileSync(join(dir, gate.suggestion.file), gate.suggestion.content);
    expect(checkBreakingGate(breaking, { changesetDir: dir })).toMatchObject({ ok: true, majorChangesets: ['breaking-fixture.md'] });
  });

  it('the gate asks only for the packages still missing a major changeset', async () => {
    const { breaking } = await requiredField();
    const dir = changesetDir('partly-major', { 'types-major.md': ['"@idv-toolkit/types": major'] });
    const gate = checkBreakingGate(breaking, { changesetDir: dir });
    expect(gate.missing).toEqual(['@idv-toolkit/openapi', '@idv-toolkit/client']);
    expect(gate.suggestion.content).toMatch(/^---\n"@idv-toolkit\/openapi": major\n"@idv-toolkit\/client": major\n---\n/);
    expect(gate.message).not.toContain('"@idv-toolkit/types": major');
  });
});

describe('every API of redocly.yaml, in a repository copy', () => {
  it('compares the released ones, skips new ones, reports removed ones; --update-snapshots makes them the baseline', async () => {
    const root = join(tmp, 'repo');
    mkdirSync(join(root, 'openapi/released'), { recursive: true });
    writeFileSync(join(root, 'openapi/redocly.yaml'), 'apis:\n  fixture@v1:\n    root: fixture.json\n  added@v1:\n    root: added.json\n');
    copyFileSync(join(ROOT, DIFF_CONFIG), join(root, DIFF_CONFIG));
    copyFileSync(variant('removed-operation-2', (doc) => delete doc.paths['/delete-blacklist-record']), join(root, 'openapi/fixture.json'));
    copyFileSync(variant('added'), join(root, 'openapi/added.json'));
    copyFileSync(variant('released-fixture'), join(root, 'openapi/released/fixture.json'));
    copyFileSync(variant('released-gone'), join(root, 'openapi/released/gone.json'));

    const before = await findBreakingChanges({ root });
    expect(before.apis.map((api: { name: string; status: string }) => [api.name, api.status])).toEqual([['fixture', 'compared'], ['added', 'new'], ['gone', 'removed']]);
    expect(before.breaking.map((change: Change) => `${change.api} ${change.rule}`)).toEqual(['fixture path-removed', 'gone api-removed']);
    expect(before.breaking.find((change: Change) => change.api === 'gone')).toEqual({
      api: 'gone',
      operation: 'every operation of the API',
      where: '',
      rule: 'api-removed',
      what: 'The API `gone` was released (openapi/released/gone.json) but openapi/redocly.yaml no longer names it.',
      why: 'Every caller of this API loses it: the whole description is gone from openapi/redocly.yaml.',
      pointer: '#',
    });
    expect(formatReport(before, { root })).toContain('added: new since the last release');

    const updated = await updateSnapshots({ root });
    expect(updated.map((entry: { name: string; status: string }) => [entry.name, entry.status])).toEqual([['fixture', 'updated'], ['added', 'created'], ['gone', 'removed']]);
    const after = await findBreakingChanges({ root });
    expect(after.breaking).toEqual([]);
    expect(after.apis.map((api: { status: string }) => api.status)).toEqual(['compared', 'compared']);
  });
});
