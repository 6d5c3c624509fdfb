// The test durations a mutation run keeps (stryker/vitest.scope.ts): Stryker kills a test process when a
// mutant times out, possibly while it writes the durations file; the next test process must still load
// its configuration (a cut file stopped whole `npm run mutation` runs: docs/testing.md, ninth session).
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the repository (under the gitignored .mutation/), so the copy resolves vitest as the original does.
const copy = join(root, '.mutation', `durations-test-${process.pid}`);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

it('loads the scope configuration when the durations file was cut by a killed process', async () => {
  mkdirSync(join(copy, 'stryker'), { recursive: true });
  mkdirSync(join(copy, '.mutation'), { recursive: true });
  copyFileSync(join(root, 'stryker', 'vitest.scope.ts'), join(copy, 'stryker', 'vitest.scope.ts'));
  writeFileSync(join(copy, '.mutation', 'test-durations.json'), '[["sandbox:/src/a.test.ts",12');
  const scope = await import(pathToFileURL(join(copy, 'stryker', 'vitest.scope.ts')).href);
  expect(typeof scope.scopeConfig).toBe('function');
});
