import { parseTar } from 'nanotar';
import { sniffMediaType } from './body.js';

export type DecodedDataUri = { contentType: string; bytes: Uint8Array };

// `(.*)` with the `s` flag runs to the end of the text: no `$` needed.
const dataUriPattern = /^data:([^;,]+)((?:;[^;,=]+=[^;,]+)*)(;base64)?,(.*)/s;

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64.replace(/\s/g, ''));
  const bytes = new Uint8Array(binary.length);
  // Stryker disable next-line EqualityOperator: `<=` writes one byte past the end of a typed array, which drops it.
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  // Stryker disable next-line EqualityOperator: `<=` adds one more chunk only when the length is a multiple of it, and that chunk is empty.
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** Decodes a data URI of the kind the service returns (PDF export, face photo, tar archives). */
export function decodeDataUri(uri: string): DecodedDataUri {
  const match = dataUriPattern.exec(uri);
  if (!match) throw new TypeError('Not a data URI: expected data:<media type>[;base64],<data>');
  // Stryker disable next-line StringLiteral: the last group always matches (maybe empty), so the default is for the type checker only.
  const [, contentType, , base64, data = ''] = match;
  const bytes = base64 ? base64ToBytes(data) : new TextEncoder().encode(decodeURIComponent(data));
  return { contentType: contentType!.toLowerCase(), bytes };
}

/** The media types upload-file accepts. */
export const uploadMediaTypes = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type UploadMediaType = (typeof uploadMediaTypes)[number];

/**
 * Makes the base64 data URI that upload-file takes. The media type is read from the bytes' magic number
 * (or given), and must be one the service accepts and agree with the bytes.
 */
export function toUploadDataUri(bytes: Uint8Array, contentType?: UploadMediaType): string {
  const sniffed = sniffMediaType(bytes);
  const type = contentType ?? sniffed;
  if (!(uploadMediaTypes as readonly string[]).includes(type)) {
    throw new TypeError(`upload-file accepts ${uploadMediaTypes.join(', ')}; these bytes are ${sniffed}`);
  }
  if (type !== sniffed) throw new TypeError(`The bytes are ${sniffed}, not the declared ${type}`);
  return `data:${type};base64,${bytesToBase64(bytes)}`;
}

export type TarEntry = { name: string; size: number; bytes: Uint8Array };

/**
 * Reads the files of a tar archive (visual markers, video call shots, all video call videos), given as
 * the service's data URI or as bytes. Folders are left out.
 */
export function readTarEntries(archive: string | Uint8Array): TarEntry[] {
  const bytes = typeof archive === 'string' ? decodeDataUri(archive).bytes : archive;
  // nanotar reads the whole ArrayBuffer behind a view, from its start: a view into a larger buffer (a Node
  // Buffer from the shared pool, a subarray) is copied into a buffer of its own first (`new Uint8Array`, as
  // a Buffer's `slice` is a view too).
  // Stryker disable next-line ConditionalExpression: copying an archive that has its buffer to itself gives the same entries.
  const own = bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  return parseTar(own)
    .filter((entry) => entry.type === 'file' || entry.type === undefined)
    .map((entry) => ({ name: entry.name, size: entry.size ?? entry.data?.length ?? 0, bytes: entry.data ?? new Uint8Array() }));
}
