// jsonSize (state.ts) counts a flat record's JSON length without writing it: it must agree with
// JSON.stringify for every record, or a company's byte budget would fill at another point than before.
import { describe, expect, it } from 'vitest';
import { jsonSize } from './state.js';

const records: unknown[] = [
  {},
  { id: 'blk_0123', reason: 'Forged document', documentNumber: 'X1' },
  { a: 1, b: -0, c: 1.5e-7, d: 1e21, e: NaN, f: Infinity, g: true, h: false, i: null },
  { skipped: undefined, fn: () => 1, sym: Symbol('s'), kept: 'x' },
  { only: undefined },
  { quote: 'say "hi"', slash: 'a\\b', nul: '\u0000', tab: '\t', del: '\u007f', euro: '€', pair: '😀' },
  { lone: '\ud800x' },
  { low: 'x\udfff' },
  { unit: '\u001f' },
  { plain: ' ~\ue000' },
  { 'key "quoted"': 1, 'ключ': 'значение' },
  { nested: { a: [1, 2] }, list: ['a'] },
  { when: new Date(0) },
  { toJSON: () => 'other' },
  [1, 'two'],
  'text',
  42,
  null,
  undefined,
];

describe('jsonSize', () => {
  it.each(records.map((record, at) => [at, record]))('record %i has the length of its JSON', (_, record) => {
    expect(jsonSize(record)).toBe(JSON.stringify(record)?.length ?? 0);
  });
});
