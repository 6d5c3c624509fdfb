// What a file is, by its magic number, never by what the request says it is.
export type SniffedType = 'image/jpeg' | 'image/png' | 'application/pdf' | 'video/mp4';

const signatures: { type: SniffedType; at: number; bytes: number[] }[] = [
  { type: 'image/jpeg', at: 0, bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'application/pdf', at: 0, bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'video/mp4', at: 4, bytes: [0x66, 0x74, 0x79, 0x70] }, // ISO base media: a box of type ftyp first
];

/** The media type the bytes' magic number tells, or undefined when it is none of the known ones. */
export function sniffMediaType(bytes: Uint8Array): SniffedType | undefined {
  return signatures.find((s) => bytes.length >= s.at + s.bytes.length && s.bytes.every((b, i) => bytes[s.at + i] === b))?.type;
}

export const isJpeg = (bytes: Uint8Array | undefined): bytes is Uint8Array => bytes !== undefined && sniffMediaType(bytes) === 'image/jpeg';
