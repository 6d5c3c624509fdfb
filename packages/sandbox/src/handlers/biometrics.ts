// Face comparison and spoof checks. The sandbox sees no faces: every figure is derived from the bytes
// sent (SHA-256), so the same files always give the same answer, and a JPEG's declared size stands in
// for the size of the face in it.
import { refuse } from '../codes.js';
import type { TypedHandlers } from '../context.js';
import { decodeBase64, withoutLineBreaks } from '../media/data-uri.js';
import { hashNumber } from '../media/hash.js';
import { jpegSize } from '../media/jpeg.js';
import { isJpeg } from '../media/sniff.js';

/** Recommended minimum face size, and the smallest size that still gets an answer (Part 4.9). */
export const recommendedFacePixels = 80;
export const smallestFacePixels = 65;

/**
 * The face's size in pixels (our choice): the face is taken to fill the picture, so it is the smaller of
 * the width and height in the JPEG's frame header. A JPEG whose header cannot be read gets a size from
 * its hash, always at least the recommended 80 px.
 */
export function faceSize(jpeg: Uint8Array): number {
  const size = jpegSize(jpeg);
  return size ? Math.min(size.width, size.height) : recommendedFacePixels + (hashNumber(['face size', jpeg]) % 320);
}

/** 1 for the very same bytes; else a figure from 0.05 to 0.98 that does not depend on the faces' order. */
export function similarityOf(face1: Uint8Array, face2: Uint8Array): number {
  if (Buffer.from(face1).equals(face2)) return 1;
  const [first, second] = Buffer.compare(face1, face2) < 0 ? [face1, face2] : [face2, face1];
  return (5 + (hashNumber(['similarity', first, second]) % 94)) / 100;
}

/** Our choice of status labels for a spoof (the reference shows the statuses array but no values). */
export const spoofStatuses = ['SCREEN_REPLAY', 'PRINTED_PHOTO', 'MASK'] as const;

export const biometricsHandlers: TypedHandlers = {
  /**
   * JPEG only, by the bytes' magic number (`wrong-parameters` otherwise, also for a face sent as a text
   * field). A face of 65-79 px gives similarity null and FACE_FAR_AWAY among that face's statuses, as the
   * reference shows. Under 65 px (our choice) no face is found: `wrong-parameters`.
   */
  compareFaces(context) {
    const face1 = context.files.face1?.bytes;
    const face2 = context.files.face2?.bytes;
    if (!isJpeg(face1) || !isJpeg(face2)) refuse(context, 'wrong-parameters');
    const sizes = [faceSize(face1), faceSize(face2)];
    if (sizes.some((size) => size < smallestFacePixels)) refuse(context, 'wrong-parameters');
    const statuses = sizes.map((size) => (size < recommendedFacePixels ? ['FACE_FAR_AWAY'] : []));
    const similarity = sizes.every((size) => size >= recommendedFacePixels) ? similarityOf(face1, face2) : null;
    return { json: { result: { similarity, face1Statuses: statuses[0]!, face2Statuses: statuses[1]! } } };
  },

  /**
   * `file` must be base64 text (line breaks allowed) of at least one byte, else `wrong-parameters`. Any
   * bytes are accepted (the reference names no video format). One video in four, by hash, is a spoof,
   * with one of our status labels; a live video has no statuses.
   */
  async checkSpoofing(context) {
    const text = typeof context.body.file === 'string' ? withoutLineBreaks(context.body.file) : '';
    const bytes = decodeBase64(text);
    if (!bytes || bytes.length === 0) refuse(context, 'wrong-parameters');
    // A video of megabytes takes tens of ms to decode and as many to hash: two turns, not one.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const hash = hashNumber(['spoof', bytes]);
    const isSpoof = hash % 4 === 0;
    return { json: { result: { isSpoof, statuses: isSpoof ? [spoofStatuses[(hash >>> 8) % spoofStatuses.length]] : [] } } };
  },
};
