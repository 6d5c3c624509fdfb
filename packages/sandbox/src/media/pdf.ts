// Real PDF documents made with pdf-lib: one page (or more, when its text runs long) per section, in the
// standard Helvetica font. Metadata dates come from the sandbox clock, so the same input gives the same
// bytes.
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { defaultLimits, type Limits } from '../limits.js';

export type PdfSection = { title: string; lines: string[] };

const pageSize: [number, number] = [595.28, 841.89]; // A4 in points
const margin = 56;
const lineHeight = 16;
const textSize = 11;

/** Helvetica's WinAnsi encoding cannot draw every character: anything outside Latin-1 becomes '?'. */
const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

function wrap(font: PDFFont, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  // A word wider than the line (an ID, a long number) is cut into pieces that fit.
  const words = printable(text)
    .split(' ')
    .flatMap((word) => word.match(/.{1,60}/g) ?? ['']);
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, textSize) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  return [...lines, line];
}

/**
 * The work is bounded (limits.ts): each value is cut to `maxPdfValueLength` characters and each section
 * to `maxPdfLinesPerSection` lines, so the largest session a request can make exports in a few pages.
 */
export async function makePdf(title: string, sections: PdfSection[], at: number, limits: Pick<Limits, 'maxPdfLinesPerSection' | 'maxPdfValueLength'> = defaultLimits): Promise<Uint8Array> {
  const cut = (text: string) => (text.length > limits.maxPdfValueLength ? `${text.slice(0, limits.maxPdfValueLength)} [cut]` : text);
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(printable(cut(title)));
  doc.setCreator('IDV sandbox');
  doc.setProducer('IDV sandbox (pdf-lib)');
  doc.setCreationDate(new Date(at));
  doc.setModificationDate(new Date(at));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const section of sections) {
    let page: PDFPage = doc.addPage(pageSize);
    let y = pageSize[1] - margin;
    page.drawText(printable(cut(section.title)), { x: margin, y, size: 18, font: bold });
    y -= 2 * lineHeight;
    const lines: string[] = [];
    for (const line of section.lines) {
      if (lines.length >= limits.maxPdfLinesPerSection) break;
      lines.push(...wrap(font, cut(line), pageSize[0] - 2 * margin));
    }
    if (lines.length > limits.maxPdfLinesPerSection) lines.splice(limits.maxPdfLinesPerSection, Infinity, `[cut: the sandbox prints at most ${limits.maxPdfLinesPerSection} lines a section]`);
    for (const text of lines) {
      if (y < margin) {
        page = doc.addPage(pageSize);
        y = pageSize[1] - margin;
      }
      page.drawText(text, { x: margin, y, size: textSize, font });
      y -= lineHeight;
    }
  }
  return doc.save({ useObjectStreams: false });
}
