import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM module without type declarations
import { completeExample, withCompleteExamples } from './fill-examples.mjs';

const require = createRequire(import.meta.url);
const current = JSON.parse(readFileSync(require.resolve('@idv-toolkit/openapi/current.json'), 'utf8'));

describe('completed examples', () => {
  it('add the documented example of each property an example lacks, at any depth', () => {
    const document = {
      components: { schemas: { Group: { type: 'object', properties: { id: { type: 'string', example: 'g1' }, colour: { type: 'string', example: 'teal' } } } } },
    };
    const schema = { type: 'object', properties: { result: { type: 'array', items: { $ref: '#/components/schemas/Group' } } } };
    expect(completeExample(document, schema, { result: [{ id: 'g2' }] })).toEqual({ result: [{ id: 'g2', colour: 'teal' }] });
  });

  it('leave combined schemas as written', () => {
    const schema = { oneOf: [{ type: 'object', properties: { a: { example: 1 } } }] };
    expect(completeExample({}, schema, { b: 2 })).toEqual({ b: 2 });
  });

  it('complete the current interface\'s examples without touching the source document', () => {
    const before = JSON.stringify(current);
    const completed = withCompleteExamples(current);
    expect(JSON.stringify(current)).toBe(before);
    const group = completed.paths['/list-groups'].post.responses['200'].content['application/json'].examples;
    expect(Object.values(group).every((e: any) => e.value.result.every((g: any) => 'description' in g))).toBe(true);
  });
});
