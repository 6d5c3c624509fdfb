// Every anyOf/oneOf alternative in the three bundled descriptions has a title of its own, so that the
// reference names each tab ("With documentNumber", "A company") where Redoc would otherwise say "object (2)".
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

/** Every anyOf/oneOf list of a document, with its JSON pointer. */
export function alternativeLists(node: unknown, pointer = '#'): { pointer: string; alternatives: Record<string, unknown>[] }[] {
  if (!node || typeof node !== 'object') return [];
  const found: { pointer: string; alternatives: Record<string, unknown>[] }[] = [];
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) found.push({ pointer: at, alternatives: value });
    // Examples are data, not schemas.
    if (key !== 'example' && key !== 'examples') found.push(...alternativeLists(value, at));
  }
  return found;
}

describe.each(['current', 'legacy', 'sandbox'])('the %s description', (name) => {
  const document = JSON.parse(readFileSync(require.resolve(`@idv-toolkit/openapi/${name}.json`), 'utf8'));
  const lists = alternativeLists(document);

  it('gives every anyOf/oneOf alternative a title, distinct within its list', () => {
    for (const { pointer, alternatives } of lists) {
      const titles = alternatives.map((alternative) => alternative.title);
      for (const [index, title] of titles.entries()) expect(typeof title === 'string' && title.trim() !== '', `${pointer}/${index} has no title`).toBe(true);
      expect(new Set(titles).size, `${pointer}: titles repeat`).toBe(titles.length);
    }
  });
});

describe('the walk', () => {
  it('finds lists at any depth and skips examples', () => {
    const lists = alternativeLists({ a: { b: [{ oneOf: [{ title: 'x' }, {}] }] }, example: { anyOf: [{}] } });
    expect(lists.map((list) => list.pointer)).toEqual(['#/a/b/0/oneOf']);
  });
});
