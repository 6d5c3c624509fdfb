// The first TypeScript example of each README, run as written against the running mocks: the README's
// mock URLs are replaced by the ones this run started, and the environment's key by a fake one.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { fakeKey } from './fake-key.js';

const urls = inject('mockUrls');
const readmes = ['../../../README.md', '../../client/README.md'];
const scratch = fileURLToPath(new URL('../.readme-examples/', import.meta.url));

function firstExample(readme: string): string {
  const block = /```ts\n([\s\S]*?)```/.exec(readFileSync(fileURLToPath(new URL(readme, import.meta.url)), 'utf8'))?.[1];
  if (!block) throw new Error(`${readme} has no TypeScript example`);
  return block
    .replaceAll('http://127.0.0.1:4010', urls.current)
    .replaceAll('http://127.0.0.1:4011', urls.legacy)
    .replaceAll('process.env.IDV_COMPANY_KEY!', JSON.stringify(fakeKey));
}

describe.each(readmes)('the example of %s', (readme) => {
  it('runs against the mocks', async () => {
    mkdirSync(scratch, { recursive: true });
    const file = `${scratch}${readme.replace(/\W+/g, '-')}.ts`;
    writeFileSync(file, `${firstExample(readme)}\nexport {};\n`);
    await expect(import(file)).resolves.toBeDefined();
  });
});
