import { Readable } from 'node:stream';
import { pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { decodeDataUri, readTarEntries, toUploadDataUri } from './media.js';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const pdf = new TextEncoder().encode('%PDF-1.7\n%\u00e2\u00e3\n');
const gif = new TextEncoder().encode('GIF89a');

async function tarOf(files: Record<string, Uint8Array>): Promise<Uint8Array> {
  const archive = pack();
  for (const [name, bytes] of Object.entries(files)) archive.entry({ name, size: bytes.length }, Buffer.from(bytes));
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from(archive)) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

describe('data URIs', () => {
  it('decode to the media type and the exact bytes', () => {
    const uri = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
    expect(decodeDataUri(uri)).toEqual({ contentType: 'image/png', bytes: png });
  });

  it('reject what is not a data URI', () => {
    expect(() => decodeDataUri('https://example.org/a.png')).toThrow(/Not a data URI/);
  });

  it('are made for upload-file from PDF, JPEG and PNG bytes, by their magic number', () => {
    expect(toUploadDataUri(pdf)).toBe(`data:application/pdf;base64,${Buffer.from(pdf).toString('base64')}`);
    expect(decodeDataUri(toUploadDataUri(jpeg))).toEqual({ contentType: 'image/jpeg', bytes: jpeg });
    expect(decodeDataUri(toUploadDataUri(png, 'image/png')).bytes).toEqual(png);
  });

  it('refuse a media type the service does not accept, or one the bytes contradict', () => {
    expect(() => toUploadDataUri(gif)).toThrow(/accepts application\/pdf, image\/jpeg, image\/png/);
    expect(() => toUploadDataUri(png, 'image/jpeg')).toThrow(/bytes are image\/png, not the declared image\/jpeg/);
  });
});

describe('tar archives', () => {
  it('are read entry by entry from the data URI the service returns', async () => {
    const archive = await tarOf({ 'shot-1.jpg': jpeg, 'shot-2.png': png });
    const entries = readTarEntries(`data:application/x-tar;base64,${Buffer.from(archive).toString('base64')}`);
    expect(entries.map((e) => [e.name, e.size])).toEqual([
      ['shot-1.jpg', jpeg.length],
      ['shot-2.png', png.length],
    ]);
    expect(entries[0]!.bytes).toEqual(jpeg);
    expect(entries[1]!.bytes).toEqual(png);
  });
});
