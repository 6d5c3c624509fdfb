// Real PDF documents made with pdf-lib: one page (or more, when its text runs long) per section, in the
// standard Helvetica font. Metadata dates come from the sandbox clock, so the same input gives the same
// bytes.
import type { PDFFont, PDFPage } from 'pdf-lib';
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
  let lineWidth = 0;
  const space = font.widthOfTextAtSize(' ', textSize);
  // A word wider than the line (an ID, a long number) is cut into pieces that fit. Widths are summed word
  // by word (measuring the whole line again for each word would cost the square of its length).
  const words = printable(text)
    .split(' ')
    .flatMap((word) => word.match(/.{1,60}/g) ?? ['']);
  for (const word of words) {
    const wordWidth = font.widthOfTextAtSize(word, textSize);
    if (line && lineWidth + space + wordWidth > width) {
      lines.push(line);
      line = word;
      lineWidth = wordWidth;
    } else {
      lineWidth += (line ? space : 0) + wordWidth;
      line = line ? `${line} ${word}` : word;
    }
  }
  return [...lines, line];
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

let pdfLib: Promise<typeof import('pdf-lib')> | undefined;
/**
 * pdf-lib, loaded on first use: loading it took about 0.15 s (0.3 s on a busy machine) of every start-up,
 * for an operation most runs never call. The sandbox loads it in an idle turn after it listens (`preload`).
 */
export const loadPdfLib = (): Promise<typeof import('pdf-lib')> => (pdfLib ??= import('pdf-lib'));

/**
 * The work is bounded (limits.ts): each value is cut to `maxPdfValueLength` characters and each section
 * to `maxPdfLinesPerSection` lines, so the largest session a request can make exports in a few pages.
 */
export async function makePdf(title: string, sections: PdfSection[], at: number, limits: Pick<Limits, 'maxPdfLinesPerSection' | 'maxPdfValueLength'> = defaultLimits): Promise<Uint8Array> {
  const { PDFContentStream, PDFDocument, PDFName, StandardFonts } = await loadPdfLib();
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
    // A few lines at a time: other requests are answered in between, never kept waiting for the whole file.
    const lines: string[] = [];
    // Lines left out when the bound is reached at a line's end: the notice says so as when a wrap passes it.
    let leftOut = false;
    for (const line of section.lines) {
      if (lines.length >= limits.maxPdfLinesPerSection) {
        leftOut = true;
        break;
      }
      lines.push(...wrap(font, cut(line), pageSize[0] - 2 * margin));
      await nextTurn();
    }
    if (leftOut || lines.length > limits.maxPdfLinesPerSection) lines.splice(limits.maxPdfLinesPerSection, Infinity, `[cut: the sandbox prints at most ${limits.maxPdfLinesPerSection} lines a section]`);
    for (const [index, text] of lines.entries()) {
      if (index % 20 === 19) await nextTurn();
      if (y < margin) {
        page = doc.addPage(pageSize);
        y = pageSize[1] - margin;
      }
      page.drawText(text, { x: margin, y, size: textSize, font });
      y -= lineHeight;
    }
  }
  // Page contents unpacked: pdf-lib deflates every stream in one go before writing (tens of ms for a long
  // export, with the event loop waiting); plain text streams are larger but cost nothing to make.
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFContentStream)) continue;
    (object as unknown as { encode: boolean }).encode = false;
    object.dict.delete(PDFName.of('Filter'));
  }
  // objectsPerTick: pdf-lib gives the event loop a turn after every few objects it writes.
  return doc.save({ useObjectStreams: false, objectsPerTick: 4 });
}
