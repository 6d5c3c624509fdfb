// What `npm run dev` says about a bad save, and that it then keeps everything as it was: each problem
// with the file and line that hold it (issue 16: lint lines had no file, a bad $ref named only its target).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specChecker } from './spec-check.mjs';

const source = fileURLToPath(new URL('../openapi', import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), 'idv-spec-check-'));
const copy = join(cwd, 'openapi');
const group = 'openapi/current/components/schemas/Group.yaml';
const list = 'openapi/current/components/schemas/ListGroupsResponse.yaml';
const legacyRoot = 'openapi/legacy/openapi.yaml';
const originals = new Map<string, string>();

/** Replaces `from` with `to` in a file of the copy; `restore()` puts every file back. */
function edit(file: string, from: string, to: string) {
  const text = readFileSync(join(cwd, file), 'utf8');
  if (!originals.has(file)) originals.set(file, text);
  expect(text, `${file} holds ${from}`).toContain(from);
  writeFileSync(join(cwd, file), text.replace(from, to));
}
function restore() {
  for (const [file, text] of originals) writeFileSync(join(cwd, file), text);
  originals.clear();
}
/** The 1-based line and column where `text` begins in a file of the copy. */
function lineOf(file: string, text: string) {
  const lines = readFileSync(join(cwd, file), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  return `${line + 1}:${lines[line]!.indexOf(text) + 1}`;
}

let checker: ReturnType<typeof specChecker>;
beforeAll(() => {
  for (const part of ['current', 'legacy', 'sandbox', 'common', 'redocly.yaml']) cpSync(join(source, part), join(copy, part), { recursive: true });
  checker = specChecker({ configPath: join(copy, 'redocly.yaml'), cwd });
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('specChecker', () => {
  it('gives every bundle, and no error, for the descriptions as they are', async () => {
    const { bundles, errors } = await checker.check();
    expect(errors).toEqual([]);
    expect(Object.keys(bundles!).sort()).toEqual(['current', 'legacy', 'sandbox']);
    expect(bundles!.current.paths['/list-groups']).toBeDefined();
  }, 120_000);

  it('names the file, line and column of a lint error, and gives no bundle', async () => {
    edit(group, 'example: grp-compliance-01', 'example: 12');
    const { bundles, errors } = await checker.check();
    expect(bundles).toBeUndefined();
    expect(errors).toEqual([`${group}:${lineOf(group, '12')} Example value must conform to the schema: type must be string. (no-invalid-schema-examples)`]);
    restore();
  }, 120_000);

  it('names the file that holds a bad $ref, once, with the missing target relative to the project', async () => {
    edit(list, '$ref: ./Group.yaml', '$ref: ./Grop.yaml');
    const { bundles, errors } = await checker.check();
    expect(bundles).toBeUndefined();
    const at = lineOf(list, './Grop.yaml').replace(/:\d+$/, '');
    const unresolved = errors.filter((line) => line.includes("Can't resolve $ref"));
    expect(unresolved).toEqual([`${list}:${at}:7 Can't resolve $ref: ENOENT: no such file or directory 'openapi/current/components/schemas/Grop.yaml' (no-unresolved-refs)`]);
    restore();
  }, 120_000);

  it('says where a root document stops being YAML', async () => {
    edit(legacyRoot, 'openapi: 3.1.0', 'openapi: 3.1.0\nbroken: [');
    const { bundles, errors } = await checker.check();
    expect(bundles).toBeUndefined();
    expect(errors).toEqual([expect.stringMatching(new RegExp(`^${legacyRoot}:\\d+:\\d+ \\S`))]);
    restore();
  }, 120_000);

  it("keeps reporting an API's error while another API is edited, and gives the bundles back once it is fixed", async () => {
    edit(group, 'example: grp-compliance-01', 'example: 12');
    expect((await checker.check()).errors).toHaveLength(1);
    // Only the legacy description changes: the current one is not linted again, its finding stays.
    edit(legacyRoot, 'openapi: 3.1.0', '# a comment\nopenapi: 3.1.0');
    expect((await checker.check()).errors).toEqual([expect.stringContaining(group)]);
    restore();
    const { bundles, errors } = await checker.check();
    expect(errors).toEqual([]);
    expect(bundles).toBeDefined();
  }, 120_000);

  it('bundles again only the APIs made from the files a save changed, or all when redocly.yaml changed', async () => {
    await checker.check();
    edit(legacyRoot, 'openapi: 3.1.0', '# a comment\nopenapi: 3.1.0');
    edit(group, 'example: grp-compliance-01', 'example: grp-compliance-02');
    const legacyOnly = await checker.check([legacyRoot]);
    expect(legacyOnly.checked).toEqual(['legacy']);
    expect(Object.keys(legacyOnly.bundles!).sort()).toEqual(['current', 'legacy', 'sandbox']);
    const currentOnly = await checker.check([group]);
    expect(currentOnly.checked).toEqual(['current']);
    expect(JSON.stringify(currentOnly.bundles!.current)).toContain('grp-compliance-02');
    expect((await checker.check(['openapi/current/components/schemas/NotUsedAnywhere.yaml'])).checked).toEqual([]);
    edit('openapi/redocly.yaml', 'apis:', '# a comment\napis:');
    expect((await checker.check([group])).checked.sort()).toEqual(['current', 'legacy', 'sandbox']);
    restore();
    await checker.check();
  }, 120_000);

  it('bundles an API with a bad $ref again when its missing target is created', async () => {
    await checker.check();
    edit(list, '$ref: ./Group.yaml', '$ref: ./Grop.yaml');
    expect((await checker.check([list])).bundles).toBeUndefined();
    cpSync(join(cwd, group), join(cwd, 'openapi/current/components/schemas/Grop.yaml'));
    const fixed = await checker.check(['openapi/current/components/schemas/Grop.yaml']);
    expect(fixed.checked).toEqual(['current']);
    expect(fixed.errors.filter((line) => line.includes('Grop'))).toEqual([]);
    rmSync(join(cwd, 'openapi/current/components/schemas/Grop.yaml'));
    restore();
    await checker.check();
  }, 120_000);
});

describe('the example validators kept between checks', () => {
  it('finds an example broken by a change to a schema it reaches only through $ref, and forgets it once fixed', async () => {
    expect((await checker.check()).errors).toEqual([]);
    // "Video call operators" (20 characters) is in list-groups.yaml's example, which reaches Group through
    // ListGroupsResponse; Group's own examples are shorter.
    edit(group, '  name:\n    type: string', '  name:\n    type: string\n    maxLength: 16');
    const broken = await checker.check([group]);
    expect(broken.bundles).toBeUndefined();
    expect(broken.errors).toContain(
      `openapi/current/paths/list-groups.yaml:${lineOf('openapi/current/paths/list-groups.yaml', 'Video call operators')} Example value must conform to the schema: \`name\` property must NOT have more than 16 characters. (no-invalid-media-type-examples)`,
    );
    restore();
    const fixed = await checker.check([group]);
    expect(fixed.errors).toEqual([]);
    expect(fixed.bundles).toBeDefined();
  }, 120_000);
});
