// Tar archives as the service hands them out (visual markers, video call shots, all video call videos):
// a plain ustar archive built by nanotar, with fixed owner, mode and time so that the same files always
// give the same bytes.
import { createTar } from 'nanotar';

export type TarFile = { name: string; bytes: Uint8Array };

/** A tar of `files`, each stamped with `mtimeMs` (from the sandbox clock, never the wall clock). */
export function makeTar(files: TarFile[], mtimeMs: number): Uint8Array {
  const attrs = { mode: '644', uid: 0, gid: 0, user: 'sandbox', group: 'sandbox', mtime: mtimeMs };
  const archive = createTar(files.map((file) => ({ name: file.name, data: file.bytes, attrs })));
  // nanotar pads to 10 KiB records; make sure the end-of-archive marker (two zero blocks) is always there.
  const used = files.reduce((sum, file) => sum + 512 + Math.ceil(file.bytes.length / 512) * 512, 0);
  if (archive.length - used >= 1024) return archive;
  const padded = new Uint8Array(archive.length + 10240);
  padded.set(archive);
  return padded;
}
