// What a test that calls createSandbox(...) itself relies on: listen (its origin, a busy port refused),
// close (it ends connections that are in the middle of a request), invoke (an operation run in-process,
// its JSON or its bytes, the origin it gives before listening), and file answers over HTTP.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { companiesFrom, demoSessionConfigs } from './companies.js';
import { keyA, startTestSandbox } from './sandbox.test-helper.js';
import { createSandbox, type Sandbox } from './server.js';

const started: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of started.splice(0)) await sandbox.close();
});

const sandboxOf = (options: Parameters<typeof createSandbox>[0] = {}) => {
  const sandbox = createSandbox({ companies: companiesFrom({ companies: [{ name: 'Company A', companyKey: keyA, sessionConfigs: demoSessionConfigs }] }), seed: 1, ...options });
  started.push(sandbox);
  return sandbox;
};

const jpegMagic = [0xff, 0xd8, 0xff];

describe('listen', () => {
  it('listens on 127.0.0.1 unless told otherwise, and gives that origin', async () => {
    const sandbox = sandboxOf();
    const origin = await sandbox.listen(0);
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(origin).toBe(`http://127.0.0.1:${(sandbox.server.address() as { port: number }).port}`);
    expect((sandbox.server.address() as { address: string }).address).toBe('127.0.0.1');
    const answer = await fetch(`${origin}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: keyA }) });
    expect((await answer.json()).url).toMatch(new RegExp(`^${origin}/widget/\\?session_token=`));
  });

  it('rejects on a port that is taken, with the error of the listen', async () => {
    const first = sandboxOf();
    await first.listen(0);
    const port = (first.server.address() as { port: number }).port;
    const second = sandboxOf();
    await expect(second.listen(port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('close', () => {
  it('ends a connection whose request is still arriving, and resolves', async () => {
    const sandbox = sandboxOf();
    const origin = await sandbox.listen(0);
    const accepted = new Promise((resolve) => sandbox.server.once('request', resolve));
    const socket = connect(Number(new URL(origin).port), '127.0.0.1');
    const ended = new Promise((resolve) => socket.on('close', resolve));
    socket.on('error', () => undefined);
    // A body announced but not sent: the request is in progress, not idle.
    socket.write(`POST /begin HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"companyKey":`);
    await accepted;
    started.splice(started.indexOf(sandbox), 1);
    await sandbox.close();
    await ended;
    expect(sandbox.server.listening).toBe(false);
  });
});

describe('invoke', () => {
  it('runs an operation without HTTP: its JSON answer, its refusal, and applicant URLs on 127.0.0.1 before listening', async () => {
    const sandbox = sandboxOf();
    const begun = await sandbox.invoke('begin', { companyKey: keyA });
    expect(begun.status).toBe(200);
    const { id, url } = begun.json as { id: string; url: string };
    expect(url).toBe(`http://127.0.0.1/widget/?session_token=${id}`);
    expect(Object.keys(begun)).toEqual(['status', 'json']);
    expect(await sandbox.invoke('getResult', { companyKey: keyA, sessionId: 'sess_none' })).toEqual({ status: 400, json: { argumentError: 'session-not-found' } });
    expect(await sandbox.invoke('getResult', { companyKey: 'ck_test_nobody_0000', sessionId: id })).toEqual({ status: 400, json: { argumentError: 'session-not-found' } });
  });

  it('answers a file operation with its bytes alone', async () => {
    const sandbox = sandboxOf();
    const { id } = (await sandbox.invoke('begin', { companyKey: keyA })).json as { id: string };
    expect((await sandbox.invoke('sandboxCompleteSession', { companyKey: keyA, sessionId: id, result: 'approved' })).status).toBe(200);
    const file = await sandbox.invoke('legacyGetCardFront', { company_key: keyA, session_token: id });
    expect(Object.keys(file)).toEqual(['status', 'bytes']);
    expect(file.status).toBe(200);
    expect([...file.bytes!.subarray(0, 3)]).toEqual(jpegMagic);
  });

  it('refuses an operation the sandbox does not know', async () => {
    const sandbox = sandboxOf();
    await expect(sandbox.invoke('noSuchOperation', {})).rejects.toThrow(new TypeError('No operation noSuchOperation'));
  });

  it('passes path parameters on', async () => {
    const sandbox = sandboxOf({ companies: companiesFrom({ companies: [{ companyKey: keyA, registries: ['companies-house'] }] }) });
    const answer = await sandbox.invoke('checkInRegistry', { companyKey: keyA, companyName: 'Sample Ltd' }, { registry: 'companies-house' });
    expect(answer).toMatchObject({ status: 200, json: { result: { registry: 'companies-house', companyName: 'Sample Ltd' } } });
    expect(await sandbox.invoke('checkInRegistry', { companyKey: keyA })).toEqual({ status: 400, json: { error: 'wrong-parameters' } });
  });
});

describe('a file over HTTP', () => {
  it('is its bytes, with the content type and length of the file', async () => {
    const t = await startTestSandbox();
    try {
      const { id } = await t.a.begin({});
      await t.control.completeSession({ sessionId: id, result: 'approved' });
      const answer = await fetch(`${t.url}/external-api/result/card-front/`, { method: 'POST', body: new URLSearchParams({ company_key: keyA, session_token: id }) });
      const bytes = new Uint8Array(await answer.arrayBuffer());
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/jpeg');
      expect(Number(answer.headers.get('content-length'))).toBe(bytes.length);
      expect([...bytes.subarray(0, 3)]).toEqual(jpegMagic);
    } finally {
      await t.close();
    }
  });
});

describe('a path with a parameter', () => {
  it('gives the handler the parameter\'s value', async () => {
    const t = await startTestSandbox({ config: { companies: [{ name: 'Company A', companyKey: keyA, registries: ['companies-house'] }] } });
    try {
      const answer = await fetch(`${t.url}/check-in-companies-house`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: keyA }) });
      expect(answer.status).toBe(200);
      expect((await answer.json()).result.registry).toBe('companies-house');
    } finally {
      await t.close();
    }
  });
});
