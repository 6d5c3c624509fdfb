import { describe, expect, it } from 'vitest';
import { apiNames, bundleAll, operationsOf } from './bundles.js';
import { createDocumentValidator, pointerTo } from './validator.js';

const documents = await bundleAll();

type ExampleCase = { where: string; pointer: string; value: unknown };

function examplesOf(name: (typeof apiNames)[number]): ExampleCase[] {
  const document = documents[name];
  const cases: ExampleCase[] = [];
  for (const { kind, key, method, operation } of operationsOf(name, document)) {
    const root = kind === 'path' ? 'paths' : 'webhooks';
    const bodies: [string[], Record<string, { example?: unknown; examples?: Record<string, { value?: unknown }> }>][] = [];
    if (operation.requestBody?.content) bodies.push([['requestBody'], operation.requestBody.content]);
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (response.content) bodies.push([['responses', status], response.content]);
    }
    for (const [at, content] of bodies) {
      for (const [mediaType, media] of Object.entries(content)) {
        const pointer = pointerTo(root, key, method, ...at, 'content', mediaType, 'schema');
        if ('example' in media) cases.push({ where: `${key} ${at.join(' ')} ${mediaType} example`, pointer, value: media.example });
        for (const [exampleName, example] of Object.entries(media.examples ?? {})) {
          cases.push({ where: `${key} ${at.join(' ')} ${mediaType} ${exampleName}`, pointer, value: example.value });
        }
      }
    }
  }
  for (const [schemaName, schema] of Object.entries(document.components?.schemas ?? {})) {
    if ('example' in schema) {
      cases.push({ where: `schema ${schemaName}`, pointer: pointerTo('components', 'schemas', schemaName), value: schema.example });
    }
  }
  return cases;
}

describe.each(apiNames)('examples of the %s description', (name) => {
  const validate = createDocumentValidator(documents[name]);
  const cases = examplesOf(name);

  it('exist', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.where, c] as const))('%s validates against its schema', (_where, { pointer, value }) => {
    expect(validate(pointer, value)).toEqual([]);
  });
});
