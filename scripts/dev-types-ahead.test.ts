// The types `npm run dev` makes beside the lint (dev-types-ahead.mjs): from the bundles the check hands on
// before it lints (dev-check.mjs), of those APIs only.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { typesAhead } from './dev-types-ahead.mjs';
import { addOperation, countGroupsOperation } from './fixtures/count-groups.mjs';
import { scratchRepository } from './fixtures/scratch-repository.mjs';
import { specChecker } from './spec-check.mjs';

describe('typesAhead', () => {
  const scratch = scratchRepository({ prefix: 'idv-types-ahead-', paths: ['openapi', 'openapi/dist', 'packages/types'] });
  const at = (path: string) => join(scratch.dir, path);
  const worker = typesAhead({ bundleDir: at('openapi/dist') });
  afterAll(async () => {
    await worker.close();
    scratch.remove();
  });
  const checker = specChecker({ configPath: at('openapi/redocly.yaml'), cwd: scratch.dir });

  it('makes the types of a save that adds an operation from the bundles the check hands on before its lint', async () => {
    await checker.check();
    const operation = countGroupsOperation();
    addOperation(at('openapi/current'), operation);
    const saved = ['openapi/current/openapi.yaml', ...Object.keys(operation.files).map((file) => `openapi/current/${file}`)];
    let made: Promise<Awaited<ReturnType<typeof worker.make>>> | undefined;
    const checked = await checker.check(saved, (bundles: Record<string, unknown>) => {
      made = worker.make(Object.fromEntries(Object.entries(bundles).map(([name, document]) => [name, JSON.stringify(document, null, 2)])));
    });
    expect(checked.errors).toEqual([]);
    const types = await made!;
    expect(Object.keys(types!.texts)).toEqual(['current']);
    expect(types!.texts.current).toBe(JSON.stringify(checked.bundles!.current, null, 2));
    const files = new Map(types!.files);
    expect(files.get('current-operations.ts')).toMatch(/"countGroups": \{\s*"path": "\/count-groups"/);
    expect(files.get('current.ts')).toContain('CountGroupsResponse');
    expect(files.has('legacy.ts')).toBe(false);
  }, 120_000);

  it('makes the types of a save that comes while it warms up', async () => {
    const served = JSON.parse(readFileSync(at('openapi/dist/current.json'), 'utf8'));
    const texts = { current: JSON.stringify({ ...served, info: { ...served.info, title: 'While warming up' } }, null, 2) };
    worker.warmUp();
    const made = await worker.make(texts);
    expect(new Map(made!.files).get('current.ts')).toContain('export interface paths');
  }, 120_000);

  it('says why it could not make the types of a bundle', async () => {
    expect(await worker.make({ current: 'not JSON' })).toEqual({ failed: expect.stringMatching(/JSON/) });
  }, 60_000);

  it('answers at once, with nothing, once its worker is gone', async () => {
    const stopped = typesAhead({ bundleDir: at('openapi/dist') });
    await stopped.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await stopped.make({ current: '{}' })).toBeUndefined();
  });
});

describe("the check's bundles before its lint", () => {
  const scratch = scratchRepository({ prefix: 'idv-bundled-first-', paths: ['openapi'] });
  const at = (path: string) => join(scratch.dir, path);
  afterAll(() => scratch.remove());

  it('are handed on only for the APIs bundled anew, and not for a save that does not bundle', async () => {
    const checker = specChecker({ configPath: at('openapi/redocly.yaml'), cwd: scratch.dir });
    const handed: string[][] = [];
    const onBundled = (bundles: Record<string, unknown>) => handed.push(Object.keys(bundles));
    await checker.check(undefined, onBundled);
    await checker.check(['openapi/legacy/openapi.yaml'], onBundled);
    writeFileSync(at('openapi/current/openapi.yaml'), 'openapi: 3.1.0\npaths:\n  /x:\n    $ref: paths/missing.yaml\n');
    const failed = await checker.check(['openapi/current/openapi.yaml'], onBundled);
    expect(failed.bundles).toBeUndefined();
    expect(handed).toEqual([['current', 'legacy', 'sandbox'], ['legacy']]);
  }, 120_000);
});
