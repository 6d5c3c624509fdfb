// The tar archives the sandbox hands out (visual markers, call screenshots, call videos) unpack as plain
// files readable by everyone, owned by a "sandbox" user and group, whoever unpacks them.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { makeTar } from './tar.js';

const require = createRequire(import.meta.url);
// tar-stream (no types) reads the archives independently of nanotar, which writes them.
const tarStream = require('tar-stream') as {
  extract(): NodeJS.EventEmitter & { end(bytes: Uint8Array): void };
};

type Header = { name: string; mode: number; uid: number; gid: number; uname: string; gname: string; size: number; type: string };

function headers(tar: Uint8Array): Promise<Header[]> {
  return new Promise((resolve, reject) => {
    const found: Header[] = [];
    const extract = tarStream.extract();
    extract.on('entry', (header: Header, stream: NodeJS.ReadableStream, next: () => void) => {
      found.push(header);
      stream.on('end', next);
      stream.resume();
    });
    extract.on('finish', () => resolve(found));
    extract.on('error', reject);
    extract.end(tar);
  });
}

describe('makeTar', () => {
  it('writes each file with mode 644, owner and group sandbox (0:0)', async () => {
    const tar = makeTar([{ name: 'marker-01.jpg', bytes: new Uint8Array(700) }, { name: 'vf_1.mp4', bytes: new Uint8Array(0) }], 0);
    expect((await headers(tar)).map(({ name, mode, uid, gid, uname, gname, size, type }) => ({ name, mode, uid, gid, uname, gname, size, type }))).toEqual([
      { name: 'marker-01.jpg', mode: 0o644, uid: 0, gid: 0, uname: 'sandbox', gname: 'sandbox', size: 700, type: 'file' },
      { name: 'vf_1.mp4', mode: 0o644, uid: 0, gid: 0, uname: 'sandbox', gname: 'sandbox', size: 0, type: 'file' },
    ]);
  });

  it('of no files is an empty archive: only the end-of-archive marker', async () => {
    const tar = makeTar([], 0);
    expect(await headers(tar)).toEqual([]);
    expect(tar.length).toBeGreaterThanOrEqual(1024);
    expect(tar.every((byte) => byte === 0)).toBe(true);
  });
});
