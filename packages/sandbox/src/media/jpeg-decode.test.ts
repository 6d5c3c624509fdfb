// The sample JPEGs must decode in any baseline decoder (README: real, decodable files): a JFIF header, a
// quantisation table, a frame of one component, Huffman tables of ITU-T T.81 whose codes the scan data
// uses, and scan data that decodes to exactly one flat block per 8x8 pixels. Read back here with a
// minimal decoder of those segments (independent of how jpeg.ts writes them).
import { describe, expect, it } from 'vitest';
import { solidJpeg } from './jpeg.js';

type Segment = { marker: number; body: Buffer };

/** The segments of a JPEG up to the start of scan, and the entropy-coded data up to the end marker. */
function parse(jpeg: Uint8Array): { segments: Segment[]; scan: Buffer } {
  const bytes = Buffer.from(jpeg);
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  const segments: Segment[] = [];
  let at = 2;
  for (;;) {
    expect(bytes[at]).toBe(0xff);
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    segments.push({ marker, body: bytes.subarray(at + 4, at + 2 + length) });
    at += 2 + length;
    if (marker === 0xda) break;
  }
  expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
  return { segments, scan: bytes.subarray(at, -2) };
}

/** A DHT table's canonical Huffman codes (T.81 Annex C): code bits to symbol. */
function huffman(body: Buffer): { tableClass: number; id: number; codes: Map<string, number> } {
  const counts = [...body.subarray(1, 17)];
  const symbols = [...body.subarray(17)];
  expect(symbols).toHaveLength(counts.reduce((sum, n) => sum + n, 0));
  const codes = new Map<string, number>();
  let code = 0;
  let next = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < counts[length - 1]!; i++) codes.set(code.toString(2).padStart(length, '0'), symbols[next++]!), code++;
    code <<= 1;
  }
  return { tableClass: body[0]! >> 4, id: body[0]! & 0x0f, codes };
}

/** The symbols of the scan: for each block, its DC symbol and its AC symbols up to end of block. */
function decodeBlocks(scan: Buffer, dc: Map<string, number>, ac: Map<string, number>) {
  const bits = [...scan].map((byte) => byte.toString(2).padStart(8, '0')).join('');
  let at = 0;
  const read = (table: Map<string, number>) => {
    for (let length = 1; length <= 16 && at + length <= bits.length; length++) {
      const symbol = table.get(bits.slice(at, at + length));
      if (symbol !== undefined) {
        at += length;
        return symbol;
      }
    }
    return undefined;
  };
  const blocks: number[][] = [];
  // Up to 7 one bits at the end are the padding of the last byte.
  while (!/^1{0,7}$/.test(bits.slice(at))) {
    const block = [read(dc)];
    for (let symbol = read(ac); ; symbol = read(ac)) {
      block.push(symbol);
      if (symbol === 0x00 || symbol === undefined || block.length > 64) break;
    }
    blocks.push(block as number[]);
    if (block.includes(undefined)) break; // not a code of the tables: the rest cannot be read
  }
  return { blocks, padding: bits.slice(at) };
}

describe('solidJpeg, read back', () => {
  it('has a JFIF 1.1 header, an all-ones quantisation table and a frame of one 8-bit component', () => {
    const { segments } = parse(solidJpeg(20, 10, 'label'));
    expect(segments.map((s) => s.marker)).toEqual([0xe0, 0xfe, 0xdb, 0xc0, 0xc4, 0xc4, 0xda]);
    const [app0, com, dqt, sof, , , sos] = segments;
    expect(app0!.body.toString('latin1', 0, 5)).toBe('JFIF\0');
    expect([...app0!.body.subarray(5)]).toEqual([1, 1, 0, 0, 1, 0, 1, 0, 0]); // version 1.1, aspect ratio 1:1, no thumbnail
    expect(com!.body.toString()).toBe('label');
    expect([...dqt!.body]).toEqual([0, ...new Array<number>(64).fill(1)]);
    expect([...sof!.body]).toEqual([8, 0, 10, 0, 20, 1, 1, 0x11, 0]);
    expect([...sos!.body]).toEqual([1, 1, 0x00, 0, 63, 0]);
  });

  it('has the standard luminance DC and AC tables of T.81 Annex K.3', () => {
    const { segments } = parse(solidJpeg(8, 8));
    const [dc, ac] = segments.filter((s) => s.marker === 0xc4).map((s) => huffman(s.body));
    expect([dc!.tableClass, dc!.id, ac!.tableClass, ac!.id]).toEqual([0, 0, 1, 0]);
    // DC: the 12 difference categories, with the codes of Table K.3.
    expect([...dc!.codes]).toEqual([
      ['00', 0], ['010', 1], ['011', 2], ['100', 3], ['101', 4], ['110', 5], ['1110', 6], ['11110', 7], ['111110', 8], ['1111110', 9], ['11111110', 10], ['111111110', 11],
    ]);
    // AC: every run/size symbol (runs 0-15, sizes 1-10), end of block and the zero run, each once (Table K.5).
    const symbols = [...ac!.codes.values()];
    const expected = [0x00, 0xf0, ...Array.from({ length: 16 * 10 }, (_, i) => ((i / 10) << 4) | ((i % 10) + 1))];
    expect([...symbols].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    expect(ac!.codes.get('1010')).toBe(0x00); // end of block
    expect(ac!.codes.get('00')).toBe(0x01);
    expect(ac!.codes.get('11111111001')).toBe(0xf0);
    expect(ac!.codes.get('1111111111111110')).toBe(0xfa);
  });

  it('codes one flat block per 8x8 pixels: DC difference 0, end of block; padded with 1 bits', () => {
    for (const [width, height] of [[8, 8], [20, 10], [64, 48], [1, 17]] as const) {
      const { segments, scan } = parse(solidJpeg(width, height));
      const [dc, ac] = segments.filter((s) => s.marker === 0xc4).map((s) => huffman(s.body).codes);
      const { blocks, padding } = decodeBlocks(scan, dc!, ac!);
      expect(blocks, `${width}x${height}`).toEqual(new Array(Math.ceil(width / 8) * Math.ceil(height / 8)).fill([0, 0x00]));
      expect(padding, `${width}x${height}`).toMatch(/^1{0,7}$/);
    }
  });
});
