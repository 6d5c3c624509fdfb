import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { checkPackage, publishablePackages } from './check-package.mjs';

const packages: string[] = publishablePackages();

describe('publishable packages', () => {
  it('include the types and the client', () => {
    expect(packages).toEqual(expect.arrayContaining(['packages/types', 'packages/client']));
  });

  it.each(packages)('%s passes publint and attw --pack', async (dir) => {
    expect(await checkPackage(dir)).toEqual([]);
  }, 60_000);
});
