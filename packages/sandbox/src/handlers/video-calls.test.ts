import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoSessionConfigs } from '../companies.js';
import { callbackKeyA, codeOf, keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';
import { topLevelBoxes } from '../media/mp4.js';
import { dataUriBytes, ftyp, jpegMagic, readTar, startsWith } from './files.test-helper.js';
import { responseProblems } from './responses.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
let receiver: Server;
let received: Record<string, unknown>[];

// Company A gets its callbacks on a local receiver, so that the test sees what the sandbox sends.
beforeEach(async () => {
  received = [];
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      received.push(JSON.parse(text));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
  t = await startTestSandbox({
    config: {
      companies: [
        { name: 'Company A', companyKey: keyA, callbackUrl, callbackApiKey: callbackKeyA, sessionConfigs: demoSessionConfigs },
        { name: 'Company B', companyKey: keyB, callbackUrl, callbackApiKey: 'cb_test_company_b_0000', sessionConfigs: demoSessionConfigs },
      ],
    },
  });
});
afterEach(async () => {
  await t.close();
  receiver.close();
});

async function callEvents() {
  await t.sandbox.dispatcher.idle();
  return received.filter((e) => e.type === 'video-call-status-update');
}

const withCall = async () => (await t.a.begin({ configId: 'cfg-kyc-video-call' })).id;

describe('a session with a video call', () => {
  it('has operator screenshots as a real tar of JPEGs while the call goes on', async () => {
    const id = await withCall();
    const body = await t.a.getVideoCallShots({ sessionId: id });
    expect(responseProblems('current', 'getVideoCallShots', body)).toEqual([]);
    const entries = await readTar(dataUriBytes(body.result, 'application/x-tar'));
    expect(entries.map((e) => e.name)).toEqual(['shot-001.jpg', 'shot-002.jpg']);
    for (const entry of entries) expect(startsWith(entry.bytes, jpegMagic)).toBe(true);
  });

  it('has no recording until the call ends', async () => {
    const id = await withCall();
    expect(await codeOf(t.a.getVideoCallVideos({ sessionId: id }))).toBe('not-found');
    expect(await codeOf(t.a.getVideoCallVideos({ sessionId: id, fileId: 'vf_0000000000000000' }))).toBe('not-found');
  });

  it('ends: empty answer, status moves in the result, two callbacks, and a downloadable MP4', async () => {
    const id = await withCall();
    const [before] = (await t.legacyA.getResult({ session_token: id })).videoCallStatus!;
    expect(before).toMatchObject({ roomStatus: 'created', compositionStatus: null, videoFileStatus: null, videoFileId: null });

    expect(await t.a.endVideoCall({ sessionId: id })).toEqual({});

    const [after] = (await t.legacyA.getResult({ session_token: id })).videoCallStatus!;
    expect(after).toMatchObject({ roomId: before!.roomId, roomStatus: 'ended', compositionStatus: 'available', videoFileStatus: 'available' });
    const fileId = after!.videoFileId!;
    expect(fileId).toMatch(/^vf_/);
    expect(await callEvents()).toEqual([
      { callbackApiKey: callbackKeyA, type: 'video-call-status-update', sessionId: id, roomId: before!.roomId, roomStatus: 'ended', compositionStatus: 'started', videoFileStatus: null, videoFileId: null },
      { callbackApiKey: callbackKeyA, type: 'video-call-status-update', sessionId: id, roomId: before!.roomId, roomStatus: 'ended', compositionStatus: 'available', videoFileStatus: 'available', videoFileId: fileId },
    ]);

    const one = await t.a.getVideoCallVideos({ sessionId: id, fileId });
    expect(responseProblems('current', 'getVideoCallVideos', one)).toEqual([]);
    expect(one.result.contentType).toBe('video/mp4');
    const mp4 = dataUriBytes(one.result.content, 'video/mp4');
    expect(startsWith(mp4, ftyp, 4)).toBe(true);
    expect(topLevelBoxes(mp4)).toContain('moov');

    const all = await t.a.getVideoCallVideos({ sessionId: id });
    expect(responseProblems('current', 'getVideoCallVideos', all)).toEqual([]);
    expect(all.result.contentType).toBe('application/x-tar');
    const entries = await readTar(dataUriBytes(all.result.content, 'application/x-tar'));
    expect(entries.map((e) => e.name)).toEqual([`${fileId}.mp4`]);
    expect(Buffer.from(entries[0]!.bytes).equals(mp4)).toBe(true);

    expect(await codeOf(t.a.getVideoCallVideos({ sessionId: id, fileId: `${fileId}x` }))).toBe('not-found');
    // Screenshots stay after the call.
    await expect(t.a.getVideoCallShots({ sessionId: id })).resolves.toHaveProperty('result');
  });

  it('ending an ended call changes nothing and sends no callback', async () => {
    const id = await withCall();
    await t.a.endVideoCall({ sessionId: id });
    const ended = structuredClone((await t.sandbox.state.sessions.get(keyA, id))!.videoCall);
    expect(await t.a.endVideoCall({ sessionId: id })).toEqual({});
    expect((await t.sandbox.state.sessions.get(keyA, id))!.videoCall).toEqual(ended);
    expect(await callEvents()).toHaveLength(2);
  });

  it('is out of reach of another company', async () => {
    const id = await withCall();
    expect(await codeOf(t.b.endVideoCall({ sessionId: id }))).toBe('invalid-access');
    expect(await codeOf(t.b.getVideoCallShots({ sessionId: id }))).toBe('invalid-access');
    expect(await codeOf(t.b.getVideoCallVideos({ sessionId: id }))).toBe('invalid-access');
    expect((await t.sandbox.state.sessions.get(keyA, id))!.videoCall!.roomStatus).toBe('created');
    expect(await callEvents()).toEqual([]);
  });
});

describe('a session without a video call', () => {
  it('has no shots or videos, and nothing to end', async () => {
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    expect(await codeOf(t.a.getVideoCallShots({ sessionId: id }))).toBe('not-found');
    expect(await codeOf(t.a.getVideoCallVideos({ sessionId: id }))).toBe('not-found');
    expect(await codeOf(t.a.getVideoCallVideos({ sessionId: id, fileId: 'vf_1' }))).toBe('not-found');
    expect(await codeOf(t.a.endVideoCall({ sessionId: id }))).toBe('invalid-access');
    expect(await callEvents()).toEqual([]);
  });

  it('unknown sessions: session-not-found, or invalid-access where that is the only code', async () => {
    expect(await codeOf(t.a.getVideoCallShots({ sessionId: 'sess_nope' }))).toBe('session-not-found');
    expect(await codeOf(t.a.getVideoCallVideos({ sessionId: 'sess_nope' }))).toBe('session-not-found');
    expect(await codeOf(t.a.endVideoCall({ sessionId: 'sess_nope' }))).toBe('invalid-access');
    expect(await codeOf(t.a.endVideoCall({} as never))).toBe('invalid-access');
  });
});

describe('a video call as the platform moves it (control API)', () => {
  it('ending it records a VIDEO_CALL_ENDED activity with the room and the recording', async () => {
    const id = await withCall();
    await t.a.endVideoCall({ sessionId: id });
    const [call] = (await t.legacyA.getResult({ session_token: id })).videoCallStatus!;
    const activities = (await t.a.listSessionActivities({ sessionId: id })).result;
    expect(activities.at(-1)).toMatchObject({ type: 'VIDEO_CALL_ENDED', data: { roomId: call!.roomId, videoFileId: call!.videoFileId } });
  });

  it('a room that ended empty has no screenshots', async () => {
    const id = await withCall();
    await t.control.setVideoCallStatus({ sessionId: id, roomStatus: 'empty' });
    expect(await codeOf(t.a.getVideoCallShots({ sessionId: id }))).toBe('not-found');
  });

  it('keeps what a move leaves out, and the recording ID once it is available', async () => {
    const id = await withCall();
    expect(await t.control.setVideoCallStatus({ sessionId: id, roomStatus: 'ended', compositionStatus: 'available', videoFileStatus: 'available' })).toEqual({ result: true });
    const status = async () => (await t.legacyA.getResult({ session_token: id })).videoCallStatus![0]!;
    const first = await status();
    expect(first.videoFileId).toMatch(/^vf_/);
    await t.control.setVideoCallStatus({ sessionId: id, roomStatus: 'ended' });
    expect(await status()).toEqual(first);
    expect((await t.a.getVideoCallVideos({ sessionId: id, fileId: first.videoFileId! })).result.contentType).toBe('video/mp4');
    // A file no longer available has no ID, and no video.
    await t.control.setVideoCallStatus({ sessionId: id, roomStatus: 'ended', videoFileStatus: 'started' });
    expect(await status()).toMatchObject({ compositionStatus: 'available', videoFileStatus: 'started', videoFileId: null });
    expect(await codeOf(t.a.getVideoCallVideos({ sessionId: id }))).toBe('not-found');
    const events = await callEvents();
    expect(events.map((e) => [e.sessionId, e.roomId, e.roomStatus, e.videoFileStatus])).toEqual([
      [id, first.roomId, 'ended', 'available'],
      [id, first.roomId, 'ended', 'available'],
      [id, first.roomId, 'ended', 'started'],
    ]);
  });

  it('a move of another company is refused and changes nothing', async () => {
    const id = await withCall();
    expect(await codeOf(t.controlB.setVideoCallStatus({ sessionId: id, roomStatus: 'ended' }))).toBe('invalid-access');
    expect((await t.sandbox.state.sessions.get(keyA, id))!.videoCall!.roomStatus).toBe('created');
  });
});
