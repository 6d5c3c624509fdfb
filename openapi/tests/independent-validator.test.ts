import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { apiNames, bundleAll } from './bundles.js';

const documents = await bundleAll();

describe.each(apiNames)('the bundled %s description', (name) => {
  it('passes an OpenAPI 3.1 validator other than Redocly', async () => {
    const copy = structuredClone(documents[name]);
    await expect(SwaggerParser.validate(copy as never)).resolves.toBeTruthy();
  });
});
