// Video calls: operator screenshots, recordings, and ending the call. A session has a call when its steps
// include a `video-call` step (sessions.ts opens the room as `created`). Ending it moves the room and its
// recording forward and sends a `video-call-status-update` callback for each change.
import { refuse } from '../codes.js';
import type { Context, TypedHandlers } from '../context.js';
import { toDataUri } from '../media/data-uri.js';
import { callShots, callVideo, filesTime } from '../media/session-files.js';
import { makeTar } from '../media/tar.js';
import { record, saveSession, sessionOf } from '../sessions.js';
import type { Session, VideoCall } from '../state.js';

function emitStatus(context: Context, session: Session, call: VideoCall) {
  context.emit({ type: 'video-call-status-update', sessionId: session.id, ...call });
}

/** The recording of the call, when its file is ready. */
function readyVideo(session: Session): { id: string; bytes: Uint8Array } | undefined {
  const call = session.videoCall;
  if (call?.videoFileStatus !== 'available' || !call.videoFileId) return undefined;
  return { id: call.videoFileId, bytes: callVideo(session, call.videoFileId) };
}

export const videoCallsHandlers: TypedHandlers = {
  /**
   * Our choice: a call that is going on or has ended has two operator screenshots; a session without a
   * call, or whose room ended empty, has none (`not-found`).
   */
  async getVideoCallShots(context) {
    const session = await sessionOf(context, context.body.sessionId);
    const call = session.videoCall;
    if (!call || call.roomStatus === 'empty') refuse(context, 'not-found');
    return { json: { result: toDataUri('application/x-tar', makeTar(callShots(session, call.roomId), filesTime(session))) } };
  },

  /**
   * With fileId: that recording as MP4, when its file is available and the ID is the call's. Without:
   * every recording in a tar (legacy mode). No recording ready gives `not-found` in both modes.
   */
  async getVideoCallVideos(context) {
    const session = await sessionOf(context, context.body.sessionId);
    const video = readyVideo(session);
    const fileId = context.body.fileId;
    if (!video || (fileId !== undefined && fileId !== video.id)) refuse(context, 'not-found');
    if (fileId !== undefined) return { json: { result: { contentType: 'video/mp4', content: toDataUri('video/mp4', video.bytes) } } };
    const tar = makeTar([{ name: `${video.id}.mp4`, bytes: video.bytes }], filesTime(session));
    return { json: { result: { contentType: 'application/x-tar', content: toDataUri('application/x-tar', tar) } } };
  },

  /**
   * Ends the active call. `invalid-access` is the only code the operation documents, so it answers every
   * refusal (our choice): an unknown session, another company's, and a session without a call. A call
   * that has already ended is left as it is and answered `{}` again, with no callback (our choice: the
   * caller's aim, a call that is over, holds; the code means "not accessible", which the call is not).
   * The recording is composed at once (our choice): the room goes to `ended` with composition started,
   * then composition and video file to `available` with a new videoFileId; a callback is queued for each
   * of the two changes.
   */
  async endVideoCall(context) {
    const session = await sessionOf(context, context.body.sessionId);
    const call = session.videoCall;
    if (!call) refuse(context, 'invalid-access');
    if (call.roomStatus !== 'created') return { json: {} };
    Object.assign(call, { roomStatus: 'ended', compositionStatus: 'started', videoFileStatus: null, videoFileId: null } satisfies Partial<VideoCall>);
    emitStatus(context, session, call);
    Object.assign(call, { compositionStatus: 'available', videoFileStatus: 'available', videoFileId: context.ids.next('vf') } satisfies Partial<VideoCall>);
    emitStatus(context, session, call);
    record(context, session, 'VIDEO_CALL_ENDED', { roomId: call.roomId, videoFileId: call.videoFileId });
    await saveSession(context, session);
    return { json: {} };
  },

  /** Control API: moves the call to the given states, as the video platform would, and says so by callback. */
  async sandboxSetVideoCallStatus(context) {
    const session = await sessionOf(context, context.body.sessionId);
    const call = session.videoCall ?? refuse(context, 'wrong-parameters');
    const { roomStatus, compositionStatus = call.compositionStatus, videoFileStatus = call.videoFileStatus } = context.body;
    const videoFileId = videoFileStatus === 'available' ? (call.videoFileId ?? context.ids.next('vf')) : null;
    Object.assign(call, { roomStatus, compositionStatus, videoFileStatus, videoFileId } satisfies Partial<VideoCall>);
    await saveSession(context, session);
    emitStatus(context, session, call);
    return { json: { result: true } };
  },
};
