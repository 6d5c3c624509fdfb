// The limits as the README's "Limits" table states them, and the shape check at the edges limits.test.ts
// leaves out (keys, nesting under a file field, a value checked from inside a form field).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultLimits, withinLimits, type Limits } from './limits.js';

/** "16 MiB", "10,000 characters", "8": the number the README's default column says. */
function readmeNumber(text: string): number {
  const match = /^([\d,]+)( KiB| MiB)?/.exec(text.trim());
  if (!match) throw new Error(`no number in ${text}`);
  const n = Number(match[1]!.replaceAll(',', ''));
  return match[2] === ' MiB' ? n * 1024 * 1024 : match[2] === ' KiB' ? n * 1024 : n;
}

describe('the defaults', () => {
  it('are the ones the README lists', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const listed = Object.fromEntries([...readme.matchAll(/^\| `(max\w+)` \| ([^|]+) \|/gm)].map((m) => [m[1], readmeNumber(m[2]!)]));
    expect(listed).toEqual(defaultLimits);
  });
});

describe('withinLimits, further edges', () => {
  const small: Limits = { ...defaultLimits, maxDepth: 3, maxTextLength: 5, maxArrayItems: 2, maxObjectKeys: 2 };

  it('counts a field name as text too', () => {
    expect(withinLimits({ abcde: 1 }, small)).toBe(true);
    expect(withinLimits({ abcdef: 1 }, small)).toBe(false);
  });

  it('lets null, booleans and finite numbers through, and refuses NaN and -Infinity', () => {
    expect(withinLimits({ a: null, b: true }, small)).toBe(true);
    expect(withinLimits([0, -1.5], small)).toBe(true);
    expect(withinLimits([NaN], small)).toBe(false);
    expect(withinLimits([-Infinity], small)).toBe(false);
    expect(withinLimits('abcdef', small)).toBe(false);
    expect(withinLimits(Infinity, small)).toBe(false);
  });

  it('checks what follows a refused-looking value: every item and field, not only the first', () => {
    expect(withinLimits([1, 'abcdef'], small)).toBe(false);
    expect(withinLimits({ a: 1, b: 'abcdef' }, small)).toBe(false);
    expect(withinLimits({ a: [1, [2, [3]]] }, small)).toBe(false); // depth 4 under the first field
  });

  it('counts depth from where a value sits: a JSON form field at depth 1 may nest one level less', () => {
    expect(withinLimits({ a: { b: {} } }, small)).toBe(true);
    expect(withinLimits({ a: { b: {} } }, small, new Set(), 1)).toBe(false);
    expect(withinLimits({ a: {} }, small, new Set(), 1)).toBe(true);
  });

  it('exempts a file field only at the top of the body, not in a value checked from inside a form field', () => {
    expect(withinLimits({ img: 'abcdefgh' }, small, new Set(['img']))).toBe(true);
    expect(withinLimits({ img: 'abcdefgh' }, small, new Set(['img']), 1)).toBe(false);
    expect(withinLimits([{ img: 'abcdefgh' }], small, new Set(['img']))).toBe(false);
    expect(withinLimits({ img: ['abcdefgh'] }, small, new Set(['img']))).toBe(false); // a list of long strings is no file
    expect(withinLimits({ other: 'abcdefgh' }, small, new Set(['img']))).toBe(false);
  });
});
