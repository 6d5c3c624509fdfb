import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { demoCompanyA, receiveBodies } from '../callback-receiver.test-helper.js';
import { watchlist } from '../screening/watchlist.js';
import { callbackKeyA, codeOf, startTestSandbox } from '../sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(() => t?.close());

describe('the control API moves video calls', () => {
  it('through the states of Part 2.8, in the session result and by callback', async () => {
    const receiver = await receiveBodies('/');
    const received = receiver.received;
    t = await startTestSandbox({ config: { companies: [demoCompanyA(receiver.url)] } });
    const { id } = await t.a.begin({ configId: 'cfg-kyc-video-call' });
    await t.control.setVideoCallStatus({ sessionId: id, roomStatus: 'ended', compositionStatus: 'started' });
    await t.control.setVideoCallStatus({ sessionId: id, roomStatus: 'ended', compositionStatus: 'available', videoFileStatus: 'available' });
    const [status] = (await t.legacyA.getResult({ session_token: id })).videoCallStatus ?? [];
    expect(status).toMatchObject({ roomStatus: 'ended', compositionStatus: 'available', videoFileStatus: 'available', videoFileId: expect.stringMatching(/^vf_/) });
    const video = await t.a.getVideoCallVideos({ sessionId: id, fileId: status!.videoFileId! });
    expect(video.result.contentType).toBe('video/mp4');
    await t.sandbox.dispatcher.idle();
    receiver.close();
    expect(received.map((r) => [r.type, r.roomStatus, r.compositionStatus, r.videoFileStatus])).toEqual([
      ['video-call-status-update', 'ended', 'started', null],
      ['video-call-status-update', 'ended', 'available', 'available'],
    ]);
  });

  it('refuses a session without a video call', async () => {
    t = await startTestSandbox();
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    expect(await codeOf(t.control.setVideoCallStatus({ sessionId: id, roomStatus: 'empty' }))).toBe('wrong-parameters');
  });
});

describe('the control API changes watchlist entries', () => {
  it('so that the change shows in monitoring and the delta records', async () => {
    t = await startTestSandbox();
    const person = watchlist.find((entry) => entry.entityType === 'Person')!;
    const { result: monitoringId } = await t.a.monitorScreeningQuery({ query: { fullName: person.name } });
    const before = await t.a.getScreeningDeltaRecords();
    t.clock.advance(24 * 3_600_000);
    const changedAt = new Date(t.clock.now()).toISOString();
    await t.control.changeWatchlistEntry({ personId: person.personId });
    const after = await t.a.getScreeningDeltaRecords();
    expect(after.result).toHaveLength(before.result.length + 1);
    expect(after.result).toContainEqual(expect.objectContaining({ date: changedAt, fullName: person.name }));
    const { result: page } = await t.a.listScreeningMonitoringRecords({ start: 0, limit: 10, date: new Date(t.clock.now() - 1000).toISOString() });
    expect(page.data).toEqual([expect.objectContaining({ id: monitoringId, lastUpdatedDate: changedAt })]);
    expect(await codeOf(t.control.changeWatchlistEntry({ personId: 'no-such-entry' }))).toBe('wrong-parameters');
  });
});

describe('the control API raises provider callbacks', () => {
  it('for each of the four events, with a payload the receiver helper accepts', async () => {
    const { parseCallback } = await import('@idv-toolkit/client');
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        received.push(text);
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    t = await startTestSandbox({ config: { companies: [demoCompanyA(callbackUrl)] } });
    const { id } = await t.a.begin({});
    const types = ['one-time-password-request', 'share-session-link-via-sms', 'share-session-link-via-email', 'email-one-time-password-request'] as const;
    for (const type of types) await t.control.raiseEvent({ sessionId: id, type });
    await t.sandbox.dispatcher.idle();
    receiver.close();
    const events = received.map((text) => parseCallback(text, { callbackApiKey: callbackKeyA }));
    expect(events.map((e) => e.type)).toEqual(types);
    expect(events[1]).toMatchObject({ sessionLink: `${t.url}/widget/?session_token=${id}`, phoneNumber: '+995500000000' });
    expect(events[0]).toMatchObject({ text: expect.stringMatching(/code is \d{6}$/) });
  });
});

describe('the control API raises what the description lists, and only that', () => {
  /** A sandbox whose company's callbacks land in `received`. */
  async function withReceiver() {
    const receiver = await receiveBodies('/');
    const received = receiver.received;
    t = await startTestSandbox({ config: { companies: [demoCompanyA(receiver.url)] } });
    const { id } = await t.a.begin({});
    return { id, received, done: async () => (await t!.sandbox.dispatcher.idle(), receiver.close()) };
  }

  it('refuses a type that is no callback, and the two the sandbox sends itself, sending nothing', async () => {
    const { id, received, done } = await withReceiver();
    for (const type of ['no-such-callback', 'session-change', 'video-call-status-update']) expect(await codeOf(t!.control.raiseEvent({ sessionId: id, type }))).toBe('wrong-parameters');
    await done();
    expect(received).toEqual([]);
  });

  it('takes the values of `fields` for the callback\'s fields, and refuses those its schema does not accept', async () => {
    const { id, received, done } = await withReceiver();
    await t!.control.raiseEvent({ sessionId: id, type: 'email-one-time-password-request', address: 'jo@example.org', fields: { subject: 'Your sign-in code', notAField: 1 } });
    expect(await codeOf(t!.control.raiseEvent({ sessionId: id, type: 'share-session-link-via-email', fields: { cc: 5 } }))).toBe('wrong-parameters');
    expect(await codeOf(t!.control.raiseEvent({ sessionId: id, type: 'share-session-link-via-email', fields: { address: 'not an address' } }))).toBe('wrong-parameters');
    await done();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ type: 'email-one-time-password-request', sessionId: id, address: 'jo@example.org', subject: 'Your sign-in code', content: expect.stringMatching(/code is \d{6}$/) });
    expect(received[0]).not.toHaveProperty('notAField');
  });
});

