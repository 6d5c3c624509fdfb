// The files a session "holds" in the sandbox: document images, face images, the liveness video, visual
// markers, video call screenshots and recordings. Nothing is stored: each file is made again on demand,
// the same bytes every time, labelled with the session ID so that two sessions never share a file.
import type { Session } from '../state.js';
import { solidJpeg } from './jpeg.js';
import { sampleMp4 } from './mp4.js';
import type { TarFile } from './tar.js';

/**
 * Whether the applicant has handed in the session's KYC media: exactly when the KYC result carries the
 * person's data (finished as approved, rejected or waiting for a manual check). Our choice: KYB sessions
 * and unfinished sessions hold none.
 */
export const hasKycMedia = (session: Session): boolean => session.kind === 'kyc' && ['approved', 'rejected', 'manual-check'].includes(session.status);

/** The time stamped on files of the session (tar entries): when it finished, else when it was made. */
export const filesTime = (session: Session): number => session.finishedAt ?? session.createdAt;

export type SessionImage = 'card-front' | 'card-back' | 'passport' | 'face' | 'face-document' | 'document-face-photo';

/** Pixel sizes (our choice). The face images are larger than the 80 px compare-faces recommends. */
const imageSizes: Record<SessionImage, [number, number]> = {
  'card-front': [320, 200],
  'card-back': [320, 200],
  passport: [352, 248],
  face: [240, 320],
  'face-document': [320, 240],
  'document-face-photo': [96, 120],
};

export function sessionImage(session: Session, what: SessionImage): Uint8Array {
  const [width, height] = imageSizes[what];
  return solidJpeg(width, height, `idv-sandbox ${what} ${session.id}`);
}

export const livenessVideo = (session: Session): Uint8Array => sampleMp4(`liveness ${session.id}`);

/** Our choice: three markers, marker-01.jpg to marker-03.jpg. */
export const visualMarkers = (session: Session): TarFile[] =>
  [1, 2, 3].map((n) => ({ name: `marker-0${n}.jpg`, bytes: solidJpeg(64, 64, `idv-sandbox visual marker ${n} ${session.id}`) }));

/** Our choice: two operator screenshots per call, shot-001.jpg and shot-002.jpg. */
export const callShots = (session: Session, roomId: string): TarFile[] =>
  [1, 2].map((n) => ({ name: `shot-00${n}.jpg`, bytes: solidJpeg(320, 240, `idv-sandbox video call shot ${n} ${roomId} ${session.id}`) }));

export const callVideo = (session: Session, videoFileId: string): Uint8Array => sampleMp4(`video call ${videoFileId} ${session.id}`);
