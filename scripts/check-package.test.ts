import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { checkPackage, publishablePackages } from './check-package.mjs';

const packages: string[] = publishablePackages();

describe('publishable packages', () => {
  // Each check mostly waits on its `npm pack` and attw processes: all the packages are checked at once.
  const checked = new Map<string, Promise<string[]>>();
  beforeAll(() => {
    for (const dir of packages) {
      const check = checkPackage(dir);
      check.catch(() => {}); // awaited by its test, which fails with the error
      checked.set(dir, check);
    }
  });

  it('include the types and the client', () => {
    expect(packages).toEqual(expect.arrayContaining(['packages/types', 'packages/client']));
  });

  it.each(packages)('%s passes publint and attw --pack', async (dir) => {
    expect(await checked.get(dir)).toEqual([]);
  }, 120_000);
});
