// Each limit at its edge, and the README's list of limits kept complete.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultLimits, withinLimits } from './limits.js';

const nested = (depth: number): unknown => (depth === 1 ? {} : { a: nested(depth - 1) });
const nestedArrays = (depth: number): unknown => (depth === 1 ? [] : [0, nestedArrays(depth - 1)]);

describe('withinLimits', () => {
  const limits = defaultLimits;
  it.each([
    ['depth', nested(limits.maxDepth), nested(limits.maxDepth + 1)],
    ['string length', { s: 'x'.repeat(limits.maxTextLength) }, { s: 'x'.repeat(limits.maxTextLength + 1) }],
    ['array items', { a: new Array(limits.maxArrayItems).fill(0) }, { a: new Array(limits.maxArrayItems + 1).fill(0) }],
    ['object keys', Object.fromEntries(Array.from({ length: limits.maxObjectKeys }, (_, i) => [`k${i}`, 0])), Object.fromEntries(Array.from({ length: limits.maxObjectKeys + 1 }, (_, i) => [`k${i}`, 0]))],
    ['finite numbers', { n: Number.MAX_VALUE }, { n: Infinity }],
    // Values in arrays are checked where they are met (limits.ts), not only the fields of objects.
    ['string length in an array', { a: [1, 'x'.repeat(limits.maxTextLength)] }, { a: [1, 'x'.repeat(limits.maxTextLength + 1)] }],
    ['finite numbers in an array', { a: [[Number.MAX_VALUE]] }, { a: [[-Infinity]] }],
    ['depth through arrays', nestedArrays(limits.maxDepth), nestedArrays(limits.maxDepth + 1)],
    ['a key\'s length', { ['k'.repeat(limits.maxTextLength)]: 0 }, { ['k'.repeat(limits.maxTextLength + 1)]: 0 }],
  ])('%s: the limit passes, one over it does not', (_name, at, over) => {
    expect(withinLimits(at, limits)).toBe(true);
    expect(withinLimits(over, limits)).toBe(false);
  });

  it('lets a top-level file field be long, but nothing nested under another name', () => {
    const long = 'x'.repeat(limits.maxTextLength + 1);
    expect(withinLimits({ content: long }, limits, new Set(['content']))).toBe(true);
    expect(withinLimits({ other: { content: long } }, limits, new Set(['content']))).toBe(false);
  });

  it('checks a decoded JSON field whatever it holds: a string, a number or an object one level down', () => {
    const long = 'x'.repeat(limits.maxTextLength + 1);
    expect(withinLimits(long, limits, undefined, 1)).toBe(false);
    expect(withinLimits(Infinity, limits, undefined, 1)).toBe(false);
    expect(withinLimits('short', limits, undefined, 1)).toBe(true);
    expect(withinLimits({ content: long }, limits, new Set(['content']), 1)).toBe(false);
    expect(withinLimits(nested(limits.maxDepth - 1), limits, undefined, 1)).toBe(true);
    expect(withinLimits(nested(limits.maxDepth), limits, undefined, 1)).toBe(false);
  });
});

describe('the README', () => {
  it('lists every limit with its default and reason', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const name of Object.keys(defaultLimits)) expect(readme, name).toMatch(new RegExp(`\\| \`${name}\` \\| [^|]+ \\| [^|]{20,} \\|`));
  });
});
