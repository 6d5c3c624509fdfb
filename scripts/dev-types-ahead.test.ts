// The types `npm run dev` makes beside the lint (dev-types-ahead.mjs): of the APIs a save touches, from a
// bundle byte for byte the check's (else dev would always generate them a second time), and nothing for a
// save that does not bundle.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { typesAhead, touchedApis } from './dev-types-ahead.mjs';
import { addOperation, countGroupsOperation } from './fixtures/count-groups.mjs';
import { scratchRepository } from './fixtures/scratch-repository.mjs';
import { specChecker } from './spec-check.mjs';

describe('touchedApis', () => {
  const apis = { 'current@v1': { root: 'current/openapi.yaml' }, 'legacy@v1': { root: 'legacy/openapi.yaml' }, 'sandbox@v1': { root: 'sandbox/openapi.yaml' } };

  it("names the APIs whose folder holds a saved file, every API for a file in none (common/, redocly.yaml)", () => {
    expect(touchedApis(apis, ['current/paths/list-groups.yaml', 'current/openapi.yaml'])).toEqual(['current']);
    expect(touchedApis(apis, ['legacy/paths/x.yaml', 'current/openapi.yaml'])).toEqual(['legacy', 'current']);
    expect(touchedApis(apis, ['current/openapi.yaml', 'common/components/schemas/CompanyKey.yaml'])).toEqual(['current', 'legacy', 'sandbox']);
    expect(touchedApis(apis, ['redocly.yaml'])).toEqual(['current', 'legacy', 'sandbox']);
    expect(touchedApis(apis, ['currently/x.yaml'])).toEqual(['current', 'legacy', 'sandbox']);
  });
});

describe('typesAhead', () => {
  const scratch = scratchRepository({ prefix: 'idv-types-ahead-', paths: ['openapi', 'openapi/dist', 'packages/types'] });
  const at = (path: string) => join(scratch.dir, path);
  const worker = typesAhead({ configPath: at('openapi/redocly.yaml'), bundleDir: at('openapi/dist') });
  afterAll(async () => {
    await worker.close();
    scratch.remove();
  });

  it("makes the types of a save that adds an operation, from the check's very bundle", async () => {
    const operation = countGroupsOperation();
    addOperation(at('openapi/current'), operation);
    const saved = ['current/openapi.yaml', ...Object.keys(operation.files).map((file) => `current/${file}`)];
    let bundledFirst: Record<string, string> | undefined;
    const [made, checked] = await Promise.all([worker.ahead(saved, (texts: Record<string, string>) => (bundledFirst = texts)), specChecker({ configPath: at('openapi/redocly.yaml'), cwd: scratch.dir }).check()]);
    expect(checked.errors).toEqual([]);
    expect(Object.keys(made!.texts)).toEqual(['current']);
    expect(made!.texts.current).toBe(JSON.stringify(checked.bundles!.current, null, 2));
    // The bundles came first, on their own, for the mocks to load while the types are made.
    expect(bundledFirst).toEqual(made!.texts);
    const files = new Map(made!.files);
    expect(files.get('current-operations.ts')).toMatch(/"countGroups": \{\s*"path": "\/count-groups"/);
    expect(files.get('current.ts')).toContain('CountGroupsResponse');
    expect(files.has('legacy.ts')).toBe(false);
  }, 120_000);

  it('makes no types when the bundles are the served ones (the second half of a burst seen in two)', async () => {
    const saved = ['current/openapi.yaml'];
    const first = await worker.ahead(saved);
    expect(first!.files.length).toBeGreaterThan(0);
    writeFileSync(at('openapi/dist/current.json'), first!.texts.current!);
    const again = await worker.ahead(saved);
    expect(again).toEqual({ texts: first!.texts, files: [], unchanged: true });
  }, 120_000);

  it('answers at once, with nothing, once its worker is gone', async () => {
    const stopped = typesAhead({ configPath: at('openapi/redocly.yaml'), bundleDir: at('openapi/dist') });
    await stopped.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await stopped.ahead(['current/openapi.yaml'])).toBeUndefined();
  });

  it('makes nothing of a save that does not bundle', async () => {
    writeFileSync(at('openapi/current/openapi.yaml'), 'openapi: 3.1.0\npaths:\n  /x:\n    $ref: paths/missing.yaml\n');
    expect(await worker.ahead(['current/openapi.yaml'])).toBeUndefined();
  }, 60_000);
});
