// The sample files the sandbox hands out must be real files of their type (README: real, decodable
// JPEG, PNG, MP4 and tar), told apart by their magic number, never by what a request says they are.
import { gzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTar } from '../handlers/files.test-helper.js';
import type { Session } from '../state.js';
import { jpegSize, solidJpeg } from './jpeg.js';
import { sampleMp4, topLevelBoxes } from './mp4.js';
import { solidPng } from './png.js';
import { callShots, callVideo, filesTime, hasKycMedia, livenessVideo, sessionImage, visualMarkers } from './session-files.js';
import { isJpeg, sniffMediaType } from './sniff.js';
import { makeTar } from './tar.js';
import { tinyJpeg, tinyPng } from './tiny-samples.test-helper.js';

const pdfBytes = new Uint8Array(Buffer.from('%PDF-1.7\n%%EOF\n', 'latin1'));

describe('sniffMediaType', () => {
  it('tells each sample by its magic number', () => {
    expect(sniffMediaType(tinyJpeg())).toBe('image/jpeg');
    expect(sniffMediaType(tinyPng())).toBe('image/png');
    expect(sniffMediaType(pdfBytes)).toBe('application/pdf');
    expect(sniffMediaType(sampleMp4())).toBe('video/mp4');
  });

  it('knows nothing of other bytes, a signature cut short, or one at the wrong place', () => {
    expect(sniffMediaType(new Uint8Array(Buffer.from('GIF89a')))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array([0xff, 0xd8]))).toBeUndefined();
    expect(sniffMediaType(tinyPng().subarray(0, 7))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array(Buffer.from('%PDF', 'latin1')))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array(Buffer.from('ftypisom', 'latin1')))).toBeUndefined(); // ftyp at 0, not at 4
    expect(sniffMediaType(sampleMp4().subarray(0, 7))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array([0, 0xff, 0xd8, 0xff]))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array())).toBeUndefined();
  });

  it('isJpeg: true for JPEG bytes only', () => {
    expect(isJpeg(tinyJpeg())).toBe(true);
    expect(isJpeg(tinyPng())).toBe(false);
    expect(isJpeg(undefined)).toBe(false);
  });
});

describe('solidJpeg and jpegSize', () => {
  it('declares the size asked for, from 1 px to 65,535 px a side', () => {
    expect(jpegSize(solidJpeg(320, 200))).toEqual({ width: 320, height: 200 });
    expect(jpegSize(solidJpeg(1, 65_535))).toEqual({ width: 1, height: 65_535 });
    expect(jpegSize(solidJpeg(65_535, 1, 'wide'))).toEqual({ width: 65_535, height: 1 });
    expect(jpegSize(tinyJpeg())).toEqual({ width: 8, height: 8 });
  });

  it('is a whole JPEG: start and end markers, no marker inside the scan data, one 6-bit code a block', () => {
    const jpeg = solidJpeg(64, 48); // 8 x 6 blocks: 48 x 6 bits = 36 bytes of scan data
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
    const sos = Buffer.from(jpeg).indexOf(Buffer.from([0xff, 0xda]));
    const scan = jpeg.subarray(sos + 10, -2); // SOS: marker, length and 6 bytes
    expect(scan.length).toBe(36);
    expect(scan.includes(0xff)).toBe(false);
    expect(Buffer.from(scan).toString('hex')).toBe('28a28a'.repeat(12)); // 001010 001010 001010 001010 ...
    expect(solidJpeg(9, 9).length - solidJpeg(8, 8).length).toBe(2); // 4 blocks (3 bytes) instead of 1 (1 byte)
  });

  it('pads the last byte of the scan data with 1 bits', () => {
    const scan = (jpeg: Uint8Array) => jpeg.subarray(-3, -2)[0];
    expect(scan(solidJpeg(8, 8))).toBe(0b00101011); // 001010 and two 1 bits
  });

  it('carries the comment, so that two labels give two files', () => {
    const jpeg = solidJpeg(8, 8, 'idv-sandbox face sess_1');
    expect(Buffer.from(jpeg).includes(Buffer.from([0xff, 0xfe, 0, 2 + 23]))).toBe(true);
    expect(Buffer.from(jpeg).includes(Buffer.from('idv-sandbox face sess_1'))).toBe(true);
    expect(Buffer.from(solidJpeg(8, 8, 'a')).equals(Buffer.from(solidJpeg(8, 8, 'b')))).toBe(false);
    expect(Buffer.from(solidJpeg(8, 8)).includes(Buffer.from([0xff, 0xfe]))).toBe(false);
    expect(jpegSize(solidJpeg(8, 8, 'x'.repeat(70_000)))).toEqual({ width: 8, height: 8 }); // a long comment is cut to fit
  });

  it('refuses a size it cannot make', () => {
    for (const [w, h] of [[0, 8], [8, 0], [1.5, 8], [8, 2.5], [65_536, 8], [8, 65_536], [-1, 8]]) expect(() => solidJpeg(w!, h!)).toThrow(RangeError);
    expect(() => solidJpeg(0, 8)).toThrow('JPEG size out of range: 0x8');
  });

  it('jpegSize reads past fill bytes and markers without a length, and any frame type', () => {
    const sof2 = [0xff, 0xc2, 0, 11, 8, 0, 30, 0, 40, 1, 1, 0x11, 0];
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff, 0xff, 0xff, 0xd0, 0xff, 0x01, ...sof2]))).toEqual({ width: 40, height: 30 });
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff, 0xd7, 0xff, 0xe1, 0, 4, 9, 9, ...sof2]))).toEqual({ width: 40, height: 30 });
  });

  it('jpegSize is undefined for what declares no usable size', () => {
    const sof0 = (w: number, h: number) => [0xff, 0xc0, 0, 11, 8, h >> 8, h & 0xff, w >> 8, w & 0xff, 1, 1, 0x11, 0];
    expect(jpegSize(tinyPng())).toBeUndefined();
    expect(jpegSize(new Uint8Array([0xff, 0xd9]))).toBeUndefined(); // not a start of image
    expect(jpegSize(new Uint8Array([0x00, 0xd8, ...sof0(8, 8)]))).toBeUndefined();
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff, 0xd9, ...sof0(8, 8)]))).toBeUndefined(); // end of image first
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2, ...sof0(8, 8)]))).toBeUndefined(); // scan before the frame
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0x12, 0x34, ...sof0(8, 8)]))).toBeUndefined(); // not a marker
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1, ...sof0(8, 8)]))).toBeUndefined(); // a length under 2
    expect(jpegSize(new Uint8Array([0xff, 0xd8, ...sof0(0, 8)]))).toBeUndefined();
    expect(jpegSize(new Uint8Array([0xff, 0xd8, ...sof0(8, 0)]))).toBeUndefined();
    expect(jpegSize(new Uint8Array([0xff, 0xd8, ...sof0(8, 8).slice(0, 8)]))).toBeUndefined(); // frame header cut short
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).toBeUndefined(); // runs out
    expect(jpegSize(new Uint8Array([0xff, 0xd8, ...sof0(8, 8).slice(0, 9)]))).toEqual({ width: 8, height: 8 }); // just enough
    expect(jpegSize(new Uint8Array([0xff, 0xd8, ...sof0(300, 8).slice(0, 8)]))).toBeUndefined(); // cut inside the width
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0x00, ...sof0(8, 8).slice(1)]))).toBeUndefined(); // a frame marker without its 0xff
  });

  it('jpegSize skips an empty segment (a length of 2)', () => {
    const sof0 = [0xff, 0xc0, 0, 11, 8, 0, 30, 0, 40, 1, 1, 0x11, 0];
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0, 2, ...sof0]))).toEqual({ width: 40, height: 30 });
  });
});

/** The chunks of a PNG, with whether each CRC is right (checked with zlib's gzip CRC-32). */
function pngChunks(png: Uint8Array) {
  const buffer = Buffer.from(png);
  const chunks: { type: string; data: Buffer; crcOk: boolean }[] = [];
  for (let at = 8; at < buffer.length; ) {
    const length = buffer.readUInt32BE(at);
    const typeAndData = buffer.subarray(at + 4, at + 8 + length);
    const gzip = gzipSync(typeAndData);
    chunks.push({ type: typeAndData.toString('latin1', 0, 4), data: typeAndData.subarray(4), crcOk: gzip.readUInt32LE(gzip.length - 8) === buffer.readUInt32BE(at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

describe('solidPng', () => {
  it('is a PNG of the size asked for, every chunk with a right CRC, every pixel the colour asked for', () => {
    const png = solidPng(3, 2, 'label', [1, 2, 3]);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = pngChunks(png);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'tEXt', 'IDAT', 'IEND']);
    expect(chunks.every((c) => c.crcOk)).toBe(true);
    expect([...chunks[0]!.data]).toEqual([0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
    expect(chunks[1]!.data.toString('latin1')).toBe('Comment\0label');
    expect([...inflateSync(chunks[2]!.data)]).toEqual([0, 1, 2, 3, 1, 2, 3, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3]);
    expect(chunks[3]!.data.length).toBe(0);
  });

  it('is light grey by default, without a comment unless given one, and a comment is printable ASCII', () => {
    const chunks = pngChunks(tinyPng());
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([...inflateSync(chunks[1]!.data)]).toEqual([0, 0xd0, 0xd0, 0xd0]);
    expect(pngChunks(solidPng(1, 1, 'é\u0000x'))[1]!.data.toString('latin1')).toBe('Comment\0??x');
  });

  it('refuses a size it cannot make', () => {
    for (const [w, h] of [[0, 1], [1, 0], [1.5, 1], [1, 1.5], [2001, 2000], [-1, 1]]) expect(() => solidPng(w!, h!)).toThrow(RangeError);
    expect(() => solidPng(2001, 2000)).toThrow('PNG size out of range: 2001x2000');
    expect(() => solidPng(1.5, 1)).toThrow('PNG size out of range: 1.5x1');
    expect(() => solidPng(1, 1.5)).toThrow('PNG size out of range: 1x1.5');
    expect(pngChunks(solidPng(2000, 2000))[0]!.data.readUInt32BE(0)).toBe(2000); // 4,000,000 pixels: the most
  });
});

describe('makeTar', () => {
  it('holds each file with its name, bytes and the time given, and ends with the end-of-archive marker', async () => {
    const files = [{ name: 'a.jpg', bytes: tinyJpeg() }, { name: 'b.mp4', bytes: sampleMp4('x') }];
    const tar = makeTar(files, Date.UTC(2026, 0, 2, 3, 4, 5));
    const entries = await readTar(tar);
    expect(entries.map((e) => [e.name, e.type, e.mtime.toISOString(), Buffer.from(e.bytes).toString('hex')])).toEqual(
      files.map((f) => [f.name, 'file', '2026-01-02T03:04:05.000Z', Buffer.from(f.bytes).toString('hex')]),
    );
    expect(tar.length % 512).toBe(0);
    expect(Buffer.from(makeTar(files, 0)).equals(Buffer.from(makeTar(files, 0)))).toBe(true);
  });

  it('always ends with two zero blocks after the last file, whatever its size', () => {
    for (let size = 0; size <= 11_000; size += 250) {
      const tar = makeTar([{ name: 'f', bytes: new Uint8Array(size).fill(1) }], 0);
      const used = 512 + Math.ceil(size / 512) * 512;
      expect(tar.length - used, `size ${size}`).toBeGreaterThanOrEqual(1024);
      expect(tar.subarray(used).every((b) => b === 0), `size ${size}`).toBe(true);
      // In whole records of 10 KiB, as tar writes them, and no more of them than the marker needs.
      expect(tar.length, `size ${size}`).toBe(Math.ceil((used + 1024) / 10240) * 10240);
    }
  });
});

describe('sampleMp4 and topLevelBoxes', () => {
  it('is an MP4 whose boxes players read, with a label box that makes each file differ', () => {
    expect(topLevelBoxes(sampleMp4('a'))).toEqual(['ftyp', 'moov', 'free', 'mdat', 'free']);
    const last = Buffer.from(sampleMp4('label'));
    expect(last.subarray(-'idv-sandbox label'.length).toString()).toBe('idv-sandbox label');
    expect(last.readUInt32BE(last.length - 8 - 'idv-sandbox label'.length)).toBe(8 + 'idv-sandbox label'.length);
    expect(Buffer.from(sampleMp4('a')).equals(Buffer.from(sampleMp4('b')))).toBe(false);
    expect(sampleMp4().length).toBe(sampleMp4('').length);
  });

  it('topLevelBoxes stops at a box too small to move on, and at the end', () => {
    expect(topLevelBoxes(new Uint8Array([0, 0, 0, 4, 0x61, 0x62, 0x63, 0x64, 0, 0, 0, 8, 0x65, 0x66, 0x67, 0x68]))).toEqual(['abcd']);
    expect(topLevelBoxes(new Uint8Array([0, 0, 0, 8, 0x61, 0x62, 0x63, 0x64, 0, 0, 0, 8, 0x65, 0x66, 0x67]))).toEqual(['abcd']);
    expect(topLevelBoxes(new Uint8Array([0, 0, 0, 8, 0x61, 0x62, 0x63, 0x64, 0, 0, 0, 8, 0x65, 0x66, 0x67, 0x68]))).toEqual(['abcd', 'efgh']);
  });
});

describe("a session's files", () => {
  const session = (status: Session['status'], kind: Session['kind'] = 'kyc', finishedAt?: number) => ({ id: 'sess_1', kind, status, createdAt: 1_000, finishedAt }) as Session;

  it('exist for a KYC session finished as approved, rejected or manual check only', () => {
    expect(['approved', 'rejected', 'manual-check'].map((s) => hasKycMedia(session(s as Session['status'])))).toEqual([true, true, true]);
    expect(['created', 'additional-information-requested', 'expired'].map((s) => hasKycMedia(session(s as Session['status'])))).toEqual([false, false, false]);
    expect(hasKycMedia(session('approved', 'kyb'))).toBe(false);
  });

  it('are stamped with when the session finished, else when it was made', () => {
    expect(filesTime(session('approved', 'kyc', 5_000))).toBe(5_000);
    expect(filesTime(session('created'))).toBe(1_000);
  });

  it('are JPEGs of fixed sizes and MP4s, labelled with the session, three markers and two shots', () => {
    expect(jpegSize(sessionImage(session('approved'), 'card-front'))).toEqual({ width: 320, height: 200 });
    expect(jpegSize(sessionImage(session('approved'), 'card-back'))).toEqual({ width: 320, height: 200 });
    expect(jpegSize(sessionImage(session('approved'), 'face-document'))).toEqual({ width: 320, height: 240 });
    expect(jpegSize(sessionImage(session('approved'), 'passport'))).toEqual({ width: 352, height: 248 });
    expect(jpegSize(sessionImage(session('approved'), 'face'))).toEqual({ width: 240, height: 320 });
    expect(jpegSize(sessionImage(session('approved'), 'document-face-photo'))).toEqual({ width: 96, height: 120 });
    const other = { ...session('approved'), id: 'sess_2' };
    expect(Buffer.from(sessionImage(session('approved'), 'face')).equals(Buffer.from(sessionImage(other, 'face')))).toBe(false);
    expect(Buffer.from(livenessVideo(session('approved'))).includes(Buffer.from('liveness sess_1'))).toBe(true);
    expect(Buffer.from(callVideo(session('approved'), 'vid_9')).includes(Buffer.from('video call vid_9 sess_1'))).toBe(true);
    expect(visualMarkers(session('approved')).map((f) => [f.name, jpegSize(f.bytes)])).toEqual([1, 2, 3].map((n) => [`marker-0${n}.jpg`, { width: 64, height: 64 }]));
    expect(callShots(session('approved'), 'room-1').map((f) => [f.name, jpegSize(f.bytes), Buffer.from(f.bytes).includes(Buffer.from('room-1 sess_1'))])).toEqual([1, 2].map((n) => [`shot-00${n}.jpg`, { width: 320, height: 240 }, true]));
  });
});
