// json-text.ts: the server writes a handler's noted JSON text for its answer, and serialises any other.
import { expect, it } from 'vitest';
import { jsonText, withJsonText } from './json-text.js';

it('gives the text noted for a value, and JSON.stringify for any other value', () => {
  const noted = withJsonText({ result: [1, 2] }, '{"result":[1,2]}');
  expect(jsonText(noted)).toBe('{"result":[1,2]}');
  // The note is the text itself, not recomputed: a value changed after it keeps the noted text.
  expect(jsonText(withJsonText({ a: 1 }, '{"a":"as noted"}'))).toBe('{"a":"as noted"}');
  expect(jsonText({ result: [1, 2] })).toBe('{"result":[1,2]}');
  expect([jsonText('text'), jsonText(3), jsonText(null), jsonText([1])]).toEqual(['"text"', '3', 'null', '[1]']);
});
