// The PDFs the sandbox makes (session export, sample bills and statements): A4 pages with a bold title per
// section and its lines below, long lines wrapped and long words cut to fit, a new page when one is full,
// bounded values and sections, Latin-1 text only, and the same bytes for the same input.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../handlers/files.test-helper.js';
import { makePdf } from './pdf.js';

const at = Date.parse('2026-03-04T05:06:07.000Z');
const lines = (count: number, prefix = 'line') => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);
const pages = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPageCount();

describe('makePdf', () => {
  it('is an A4 document titled and dated as asked, by the IDV sandbox, the same bytes every time', async () => {
    const bytes = await makePdf('Session sess_1', [{ title: 'Session', lines: ['Session ID: sess_1'] }], at);
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Session sess_1');
    expect(doc.getCreator()).toBe('IDV sandbox');
    expect(doc.getProducer()).toBe('IDV sandbox (pdf-lib)');
    expect(doc.getCreationDate()?.getTime()).toBe(at);
    expect(doc.getModificationDate()?.getTime()).toBe(at);
    expect(doc.getPages().map((page) => page.getSize())).toEqual([{ width: 595.28, height: 841.89 }]);
    expect(Buffer.from(await makePdf('Session sess_1', [{ title: 'Session', lines: ['Session ID: sess_1'] }], at)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('draws each section on a page of its own: the title in bold 18 pt at the top margin, the lines in 11 pt, 16 pt apart', async () => {
    const bytes = await makePdf('Two', [{ title: 'First', lines: ['a', 'b'] }, { title: 'Second', lines: [] }], at);
    expect(await pages(bytes)).toBe(2);
    expect(pdfText(bytes).split('\n')).toEqual(['First', 'a', 'b', 'Second']);
    const raw = Buffer.from(bytes).toString('latin1');
    // 56 pt margins: the title at 841.89 - 56, the first line two line heights below, the next one 16 pt lower.
    expect(raw).toMatch(/\/Helvetica-Bold-\d+ 18 Tf\n24 TL\n1 0 0 1 56 785\.89 Tm\n<4669727374> Tj/);
    expect(raw).toMatch(/\/Helvetica-\d+ 11 Tf\n24 TL\n1 0 0 1 56 753\.89 Tm\n<61> Tj/);
    expect(raw).toMatch(/\/Helvetica-\d+ 11 Tf\n24 TL\n1 0 0 1 56 737\.89 Tm\n<62> Tj/);
    // Page contents are written as plain text streams (not deflated: quicker to make, and searchable).
    expect(raw).not.toContain('/FlateDecode');
  });

  it('starts a new page when a page is full: 44 lines fit under the title, 46 on a page of their own', async () => {
    expect(await pages(await makePdf('t', [{ title: 'S', lines: lines(44) }], at))).toBe(1);
    expect(await pages(await makePdf('t', [{ title: 'S', lines: lines(45) }], at))).toBe(2);
    expect(await pages(await makePdf('t', [{ title: 'S', lines: lines(90) }], at))).toBe(2);
    const three = await makePdf('t', [{ title: 'S', lines: lines(91) }], at);
    expect(await pages(three)).toBe(3);
    expect(pdfText(three).split('\n')).toEqual(['S', ...lines(91)]);
  });

  it('wraps a long line at word boundaries within the margins, and cuts a word of over 60 characters', async () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`);
    const bytes = await makePdf('t', [{ title: 'S', lines: [words.join(' ')] }], at);
    const [, ...drawn] = pdfText(bytes).split('\n');
    expect(drawn.length).toBeGreaterThan(1);
    expect(drawn.join(' ')).toBe(words.join(' '));
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const widths = drawn.map((line) => font.widthOfTextAtSize(line, 11));
    for (const width of widths) expect(width).toBeLessThanOrEqual(595.28 - 2 * 56);
    // Full lines: the next word would not have fitted.
    for (const [i, line] of drawn.slice(0, -1).entries()) expect(font.widthOfTextAtSize(`${line} ${drawn[i + 1]!.split(' ')[0]}`, 11)).toBeGreaterThan(595.28 - 2 * 56);

    const id = 'x'.repeat(150);
    expect(pdfText(await makePdf('t', [{ title: 'S', lines: [`ID ${id} end`] }], at)).split('\n').slice(1)).toEqual([`ID ${'x'.repeat(60)}`, 'x'.repeat(60), `${'x'.repeat(30)} end`]);
    expect(pdfText(await makePdf('t', [{ title: 'S', lines: ['', 'after an empty line'] }], at)).split('\n')).toEqual(['S', '', 'after an empty line']);
    // At the edge: 60 + 28 letters x (5.5 pt each) and a space are 487.06 pt, just over the 483.28 pt between the margins.
    expect(pdfText(await makePdf('t', [{ title: 'S', lines: [`${'x'.repeat(60)} ${'x'.repeat(27)}`, `${'x'.repeat(60)} ${'x'.repeat(28)}`] }], at)).split('\n').slice(1)).toEqual([
      `${'x'.repeat(60)} ${'x'.repeat(27)}`,
      'x'.repeat(60),
      'x'.repeat(28),
    ]);
  });

  it('keeps the spaces of a line as written', async () => {
    expect(pdfText(await makePdf('t', [{ title: 'S', lines: ['Holder:  JANE   SAMPLE'] }], at)).split('\n')).toEqual(['S', 'Holder:  JANE   SAMPLE']);
  });

  it('writes what Helvetica cannot draw as ?, Latin-1 letters as themselves', async () => {
    const bytes = await makePdf('Тест € é', [{ title: 'Ünïcode ✓', lines: ['Žofia Привет café ß\u0000'] }], at);
    expect(pdfText(bytes).split('\n')).toEqual(['Ünïcode ?', '?ofia ?????? café ß?']);
    expect((await PDFDocument.load(bytes, { updateMetadata: false })).getTitle()).toBe('???? ? é');
  });

  it('cuts a value over maxPdfValueLength, and a section after maxPdfLinesPerSection lines', async () => {
    const limits = { maxPdfValueLength: 10, maxPdfLinesPerSection: 3 };
    const bytes = await makePdf('0123456789abc', [{ title: 'Title over ten', lines: ['0123456789', '0123456789X', 'c', 'd', 'e'] }], at, limits);
    // The lines past the third are left out, and the section says so.
    expect(pdfText(bytes).split('\n')).toEqual(['Title over [cut]', '0123456789', '0123456789 [cut]', 'c', '[cut: the sandbox prints at most 3 lines a section]']);
    expect((await PDFDocument.load(bytes, { updateMetadata: false })).getTitle()).toBe('0123456789 [cut]');
    // Exactly the most lines: nothing cut.
    expect(pdfText(await makePdf('t', [{ title: 'S', lines: ['a', 'b', 'c'] }], at, limits)).split('\n')).toEqual(['S', 'a', 'b', 'c']);
    // Lines that wrap count as the lines they make, and the section says where it was cut.
    const wrapped = await makePdf('t', [{ title: 'S', lines: [Array.from({ length: 60 }, () => 'abcdefgh').join(' '), 'next'] }], at, { maxPdfValueLength: 1000, maxPdfLinesPerSection: 3 });
    const drawn = pdfText(wrapped).split('\n');
    expect(drawn).toHaveLength(5);
    expect(drawn.at(-1)).toBe('[cut: the sandbox prints at most 3 lines a section]');
    expect(drawn).not.toContain('next');
  });

  it('has the default bounds of limits.ts: values of 1,000 characters, 100 lines a section', async () => {
    const bytes = await makePdf('t', [{ title: 'S', lines: ['y'.repeat(1001), ...lines(120)] }], at);
    const drawn = pdfText(bytes).split('\n');
    // 1,000 characters in 17 lines of at most 60, then the mark.
    expect(drawn.slice(1, 18).join('')).toBe(`${'y'.repeat(1000)} [cut]`);
    expect(drawn.slice(18)).toEqual([...lines(83), '[cut: the sandbox prints at most 100 lines a section]']);
    const wrapped = await makePdf('t', [{ title: 'S', lines: [...lines(99), `${'z'.repeat(60)} ${'z'.repeat(60)}`] }], at);
    expect(pdfText(wrapped).split('\n').slice(-2)).toEqual(['z'.repeat(60), '[cut: the sandbox prints at most 100 lines a section]']);
  });
});
