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

describe('data URIs, beyond the plain base64 form', () => {
  it('decode the percent-encoded (not base64) form, with media type parameters', () => {
    expect(decodeDataUri('data:text/plain;charset=utf-8,caf%C3%A9%20au%20lait')).toEqual({ contentType: 'text/plain', bytes: new TextEncoder().encode('café au lait') });
    expect(decodeDataUri('data:text/csv,a%2Cb')).toEqual({ contentType: 'text/csv', bytes: new TextEncoder().encode('a,b') });
  });

  it('decode base64 with media type parameters, broken into lines, and an upper-case media type', () => {
    const base64 = Buffer.from(pdf).toString('base64');
    const wrapped = `${base64.slice(0, 8)}\r\n${base64.slice(8, 16)}\n  ${base64.slice(16)}`;
    expect(decodeDataUri(`data:Application/PDF;name=report.pdf;base64,${wrapped}`)).toEqual({ contentType: 'application/pdf', bytes: pdf });
  });

  it('decode an empty payload to no bytes', () => {
    expect(decodeDataUri('data:application/octet-stream;base64,')).toEqual({ contentType: 'application/octet-stream', bytes: new Uint8Array() });
  });

  it('reject a data URI that does not start the string, or a parameter without a value', () => {
    const base64 = Buffer.from(png).toString('base64');
    expect(() => decodeDataUri(`see data:image/png;base64,${base64}`)).toThrow(/Not a data URI/);
    expect(() => decodeDataUri(`data:image/png;name;base64,${base64}`)).toThrow(/Not a data URI/);
    expect(() => decodeDataUri(`data:;base64,${base64}`)).toThrow(/Not a data URI/);
  });
});

describe('tar archives, read from bytes', () => {
  it('are read from the bytes as well as from a data URI', async () => {
    const archive = await tarOf({ 'shot-1.jpg': jpeg });
    expect(readTarEntries(archive)).toEqual([{ name: 'shot-1.jpg', size: jpeg.length, bytes: jpeg }]);
  });

  it('leave folders out, and give an empty file no bytes', async () => {
    const archive = pack();
    archive.entry({ name: 'shots', type: 'directory' });
    archive.entry({ name: 'shots/empty.txt', size: 0 }, Buffer.alloc(0));
    archive.entry({ name: 'shots/shot-1.png', size: png.length }, Buffer.from(png));
    archive.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of Readable.from(archive)) chunks.push(chunk as Buffer);
    const entries = readTarEntries(new Uint8Array(Buffer.concat(chunks)));
    expect(entries).toEqual([
      { name: 'shots/empty.txt', size: 0, bytes: new Uint8Array() },
      { name: 'shots/shot-1.png', size: png.length, bytes: png },
    ]);
  });

  it('are read from a view into a larger buffer: a Node Buffer from the shared pool, or a subarray', async () => {
    const archive = await tarOf({ 'a.txt': new TextEncoder().encode('abc') });
    // Buffer.concat of a small archive takes its bytes from Node's shared 8 KiB pool, at some offset.
    const pooled = Buffer.concat([Buffer.from(archive.subarray(0, 100)), Buffer.from(archive.subarray(100))]);
    const shifted = new Uint8Array(archive.length + 7).subarray(7);
    shifted.set(archive);
    for (const bytes of [pooled, shifted]) {
      expect(readTarEntries(bytes).map((e) => [e.name, e.size, new TextDecoder().decode(e.bytes)])).toEqual([['a.txt', 3, 'abc']]);
    }
  });

  it('read only the bytes of the view they are given, not what follows it in its buffer', async () => {
    const first = await tarOf({ 'a.txt': new TextEncoder().encode('abc') });
    const second = await tarOf({ 'b.txt': new TextEncoder().encode('def') });
    // The first archive without its two closing zero blocks, then the second one in the same buffer.
    const both = new Uint8Array(first.length - 1024 + second.length);
    both.set(first.subarray(0, first.length - 1024));
    both.set(second, first.length - 1024);
    expect(readTarEntries(both.subarray(0, first.length - 1024)).map((e) => e.name)).toEqual(['a.txt']);
  });
});
