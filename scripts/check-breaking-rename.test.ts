// A renamed field, as `npm run check:breaking` words it: redocly diff sees a required property added
// (breaking) and a property removed (in a request only a patch), and the removal used to hide among the
// "other non-breaking changes" (issue 16). Real diffs of copies of the small released fixture.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { compareDocuments, formatReport } from './check-breaking.mjs';

const released = new URL('./fixtures/breaking/released.json', import.meta.url);
const fixture = JSON.parse(readFileSync(released, 'utf8'));
const tmp = mkdtempSync(join(tmpdir(), 'idv-check-breaking-rename-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The schema `name` of a copy of the fixture with property `from` renamed to `to` (and required). */
function renamed(name: string, from: string, to: string) {
  const doc = structuredClone(fixture);
  const schema = doc.components.schemas[name];
  schema.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key === from ? to : key, value]));
  schema.required = [...(schema.required ?? []).filter((key: string) => key !== from), to];
  const file = join(tmp, `${name}-${to}.json`);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

const compare = (revision: string) => compareDocuments(released.pathname, revision, { api: 'fixture' });

describe('a renamed field', () => {
  it('in a request: one breaking change that says "removed X, added required Y" and what callers must send', async () => {
    const { breaking, summary } = await compare(renamed('NewBlacklistRecord', 'reason', 'cause'));
    expect(breaking).toEqual([
      expect.objectContaining({
        operation: 'POST /add-blacklist-record (addBlacklistRecord)',
        where: 'request body (application/json): query',
        rule: 'property-removed, required-properties-added',
        what: 'Removed `reason`, added required `cause` (a rename, as callers see it).',
        why: 'Existing requests that send `reason` instead of `cause` are now rejected with 400, and code that builds the request stops type-checking until it sends `cause`.',
      }),
    ]);
    // The removal and the addition are counted in the rename, not again among the non-breaking changes.
    expect(summary).toMatchObject({ minor: 0, patch: 0 });
  });

  it('in a response: one change naming both, not a removal and an addition apart', async () => {
    const { breaking } = await compare(renamed('AddBlacklistRecordResponse', 'result', 'recordId'));
    expect(breaking.map((change: { what: string; why: string }) => [change.what, change.why])).toEqual([
      [
        'Removed `result`, added required `recordId` (a rename, as callers see it).',
        'Callers that read `result` get undefined (the value now comes as `recordId`), and code that uses it stops type-checking.',
      ],
    ]);
  });

  it('reads in the report as one numbered change with both names', async () => {
    const comparison = await compare(renamed('NewBlacklistRecord', 'reason', 'cause'));
    const report = formatReport({ apis: [{ name: 'fixture', status: 'compared', snapshot: join(tmp, 'released.json'), ...comparison }], breaking: comparison.breaking }, { root: tmp });
    expect(report).toContain('fixture (against released.json): 1 breaking change (0 additions, 0 other non-breaking changes).');
    expect(report).toContain('  1. POST /add-blacklist-record (addBlacklistRecord)\n     What changed: Removed `reason`, added required `cause` (a rename, as callers see it). (at request body (application/json): query) [property-removed, required-properties-added]');
  });
});
