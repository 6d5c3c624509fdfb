// Reads back what the sandbox hands out (data URIs, tar archives, PDFs, blobs) with independent tools:
// tar-stream for tar (the sandbox writes with nanotar), pdf-lib's parser for PDFs.
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
// tar-stream ships no types; only extract() is used here.
const tarStream = require('tar-stream') as {
  extract(): NodeJS.EventEmitter & { end(bytes: Uint8Array): void; on(event: 'entry', listener: (header: { name: string; type: string; size: number; mtime: Date }, stream: NodeJS.ReadableStream, next: () => void) => void): unknown };
};

/** The bytes of a base64 data URI, after checking its exact prefix. */
export function dataUriBytes(uri: unknown, contentType: string): Uint8Array {
  expect(typeof uri).toBe('string');
  const prefix = `data:${contentType};base64,`;
  expect((uri as string).startsWith(prefix)).toBe(true);
  return new Uint8Array(Buffer.from((uri as string).slice(prefix.length), 'base64'));
}

export type TarEntry = { name: string; type: string; mtime: Date; bytes: Uint8Array };

export function readTar(bytes: Uint8Array): Promise<TarEntry[]> {
  return new Promise((resolve, reject) => {
    const entries: TarEntry[] = [];
    const extract = tarStream.extract();
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        entries.push({ name: header.name, type: header.type, mtime: header.mtime, bytes: new Uint8Array(Buffer.concat(chunks)) });
        next();
      });
      stream.resume();
    });
    extract.on('finish', () => resolve(entries));
    extract.on('error', reject);
    extract.end(bytes);
  });
}

export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes)).getPageCount();
}

/**
 * The text a PDF draws, for checks: its content streams inflated and the hex strings shown with Tj (the
 * form pdf-lib writes for the standard fonts) decoded, one string a line.
 */
export function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const streams = [...raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((m) => {
    try {
      return inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      return m[1]!;
    }
  });
  return streams.flatMap((s) => [...s.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((m) => Buffer.from(m[1]!, 'hex').toString('latin1'))).join('\n');
}

export const blobBytes = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

export const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
export const jpegMagic = [0xff, 0xd8, 0xff];
export const pngMagic = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
export const pdfMagic = [0x25, 0x50, 0x44, 0x46, 0x2d];
export const ftyp = [0x66, 0x74, 0x79, 0x70];
