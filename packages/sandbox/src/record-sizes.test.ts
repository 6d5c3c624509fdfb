// A record's size for the company's byte budget is the length of its JSON (state.ts jsonSize), also when
// a value or a field name is made only of characters that JSON writes as escapes (a tab, a newline, a
// quote): each of those counts as its escape, not as one character.
import { describe, expect, it } from 'vitest';
import { jsonSize } from './state.js';

describe('jsonSize of escaped text', () => {
  it.each([[{ tab: '\t' }], [{ quote: '"' }], [{ '\n': 1 }], [{ '"': 'x', ok: true }], [{ nul: '\u0000\u0001' }]])('%j counts its JSON', (record) => {
    expect(jsonSize(record)).toBe(JSON.stringify(record).length);
  });
});
