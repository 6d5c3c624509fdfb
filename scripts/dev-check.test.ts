// The check of `npm run dev` in its worker thread (dev-check.mjs): the same findings and bundles as
// spec-check.mjs in this thread, the bundles as dev writes them, and a save that fails the check gives no
// bundles but says what is wrong where.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkerWorker } from './dev-check.mjs';
import { addOperation, countGroupsOperation } from './fixtures/count-groups.mjs';
import { scratchRepository } from './fixtures/scratch-repository.mjs';
import { specChecker } from './spec-check.mjs';

describe('checkerWorker', () => {
  const scratch = scratchRepository({ prefix: 'idv-dev-check-', paths: ['openapi'] });
  const at = (path: string) => join(scratch.dir, path);
  const worker = checkerWorker({ configPath: at('openapi/redocly.yaml'), cwd: scratch.dir });
  afterAll(async () => {
    await worker.close();
    scratch.remove();
  });

  it("gives spec-check's findings and bundles, each bundle as dev writes it; a save's check bundles only its API", async () => {
    const [first, here] = await Promise.all([worker.check(), specChecker({ configPath: at('openapi/redocly.yaml'), cwd: scratch.dir }).check()]);
    expect(first.errors).toEqual(here.errors);
    expect(first.warnings).toEqual(here.warnings);
    expect(Object.keys(first.texts!).sort()).toEqual(Object.keys(here.bundles!).sort());
    for (const [name, document] of Object.entries(here.bundles!)) expect(first.texts![name]).toBe(JSON.stringify(document, null, 2));

    const operation = countGroupsOperation();
    addOperation(at('openapi/current'), operation);
    let bundledFirst: Record<string, string> | undefined;
    const saved = await worker.check(['openapi/current/openapi.yaml', ...Object.keys(operation.files).map((file) => `openapi/current/${file}`)], (texts: Record<string, string>) => (bundledFirst = texts));
    expect(saved.checked).toEqual(['current']);
    // Before the lint, the bundle of the API bundled anew, as the check then gives it.
    expect(bundledFirst).toEqual({ current: saved.texts!.current });
    // The worker's own CPU seconds for each part, for dev's report.
    expect(saved.cpu).toEqual({ bundle: expect.any(Number), lint: expect.any(Number) });
    expect(JSON.parse(saved.texts!.current!).paths['/count-groups'].post.operationId).toBe('countGroups');
    expect(saved.texts!.legacy).toBe(first.texts!.legacy);
  }, 180_000);

  it('gives no bundles for a save with an error, and names the file and line', async () => {
    writeFileSync(at('openapi/current/paths/count-groups.yaml'), 'post:\n  operationId: countGroups\n  responses:\n    "200":\n      $ref: ../components/Missing.yaml\n');
    const failed = await worker.check(['openapi/current/paths/count-groups.yaml']);
    expect(failed.texts).toBeUndefined();
    expect(failed.errors.join('\n')).toMatch(/^openapi\/current\/paths\/count-groups\.yaml:5:\d+ Can't resolve \$ref/m);
  }, 180_000);
});
