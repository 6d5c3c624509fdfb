// A section with more lines than the sandbox prints ends with the cut notice, also when the bound falls
// at a line's end (the lines past it were once dropped without a word).
import { describe, expect, it } from 'vitest';
import { pdfText } from '../handlers/files.test-helper.js';
import { makePdf } from './pdf.js';

describe('a section with more lines than the sandbox prints', () => {
  it('ends with the cut notice also when its lines are cut at a line boundary', async () => {
    const lines = Array.from({ length: 101 }, (_, i) => `line ${i + 1}`);
    const drawn = pdfText(await makePdf('t', [{ title: 'S', lines }], 0)).split('\n');
    expect(drawn.at(-1)).toBe('[cut: the sandbox prints at most 100 lines a section]');
  });
});
