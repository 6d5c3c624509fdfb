import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { version } from './version.js';

it('is the version in package.json', () => {
  expect(version).toBe(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
});
