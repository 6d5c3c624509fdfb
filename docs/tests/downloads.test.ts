// The downloads of the landing page: each bundled description as JSON and as YAML, both exactly the bundle
// (without the code samples and the link home that only the reference's copy gets).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const dist = new URL('../dist/', import.meta.url);

describe.each(['current', 'legacy', 'sandbox'])('the %s download', (name) => {
  const bundle = JSON.parse(readFileSync(require.resolve(`@idv-toolkit/openapi/${name}.json`), 'utf8'));

  it('is the bundle, as JSON and as YAML, linked from the landing page', () => {
    expect(existsSync(new URL('index.html', dist)), 'docs/dist is not built: run npm run build').toBe(true);
    expect(JSON.parse(readFileSync(new URL(`openapi/${name}.json`, dist), 'utf8'))).toEqual(bundle);
    expect(parse(readFileSync(new URL(`openapi/${name}.yaml`, dist), 'utf8'))).toEqual(bundle);
    const landing = readFileSync(new URL('index.html', dist), 'utf8');
    for (const format of ['json', 'yaml']) expect(landing).toContain(`href="openapi/${name}.${format}" download`);
  });
});
