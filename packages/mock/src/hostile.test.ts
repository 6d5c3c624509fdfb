// No request can take a mock down: malformed request targets get a 4xx before Prism sees them (issue 14,
// W1 and W9), and a Prism process that exits anyway is restarted with one line said about it.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMocks } from './index.mjs';

/** Sends `head` (and `body`) as written on a raw socket; resolves with the status code, 0 if none came. */
function raw(url: string, head: string, body = ''): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    const done = () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0));
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', done);
    socket.on('close', done);
    socket.write(`${head}\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

const listGroups = (current: string) =>
  fetch(`${current}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":"ck_test_not_a_real_key_0000"}' });
const legacyResult = (legacy: string) => {
  const form = new FormData();
  form.append('company_key', 'ck_test_not_a_real_key_0000');
  form.append('session_token', 'session-1');
  return fetch(`${legacy}/external-api/result/`, { method: 'POST', body: form });
};

let mocks: Awaited<ReturnType<typeof startMocks>>;
const said: string[] = [];

beforeAll(async () => {
  mocks = await startMocks({ ports: { current: 0, legacy: 0 }, log: (line: string) => said.push(line), spare: true });
}, 60_000);
afterAll(() => mocks?.stop());

const malformed = [
  'GET // HTTP/1.1',
  'GET //[ HTTP/1.1',
  'POST //[ HTTP/1.1',
  'POST /% HTTP/1.1',
  'POST /%zz HTTP/1.1',
  'POST /list-groups?x=% HTTP/1.1',
  'GET http://[ HTTP/1.1',
  'GET http://x:99999/ HTTP/1.1',
  'GET * HTTP/1.1',
];

describe('a mock under malformed request targets', () => {
  it.each(['/check-in-%', '/check-in-%ff', '/check-in-%E2%82'])('W1: POST %s gets a 4xx and the current mock stays up', async (target) => {
    expect(await raw(mocks.urls.current, `POST ${target} HTTP/1.1`, '{}')).toBeGreaterThanOrEqual(400);
    expect(await raw(mocks.urls.current, `POST ${target} HTTP/1.1`, '{}')).toBeLessThan(500);
    expect((await listGroups(mocks.urls.current)).status).toBe(200);
  });

  it.each(malformed)('W9: %s gets a 4xx from both mocks, and both stay up', async (head) => {
    for (const url of [mocks.urls.current, mocks.urls.legacy]) {
      const status = await raw(url, head, '{}');
      expect(status, `${head} to ${url}`).toBeGreaterThanOrEqual(400);
      expect(status, `${head} to ${url}`).toBeLessThan(500);
    }
    expect((await listGroups(mocks.urls.current)).status).toBe(200);
    expect((await legacyResult(mocks.urls.legacy)).status).toBe(200);
  });

  it('still serves well-formed targets, absolute-form and encoded ones included', async () => {
    expect(await raw(mocks.urls.current, 'POST http://127.0.0.1/list-groups HTTP/1.1', '{"companyKey":"ck_test_not_a_real_key_0000"}')).toBe(200);
    expect(await raw(mocks.urls.current, 'POST /check-in-companies%2Dhouse HTTP/1.1', '{"companyKey":"ck_test_not_a_real_key_0000"}')).toBe(200);
    expect(await raw(mocks.urls.current, 'POST /no-such-operation HTTP/1.1', '{}')).toBe(404);
  });
});

/** Kills the Prism answering for `name`, then asks again; resolves with the status and the time taken. */
async function killAndAsk(served: typeof mocks, name: 'current' | 'legacy') {
  const pid = served.prismPids()[name];
  expect(pid).toBeGreaterThan(0);
  const killed = performance.now();
  process.kill(pid!, 'SIGKILL');
  // A request in flight at the moment Prism dies gets a 502; one that comes after waits for the restart.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const response = name === 'current' ? await listGroups(served.urls.current) : await legacyResult(served.urls.legacy);
  expect(served.prismPids()[name]).not.toBe(pid);
  return { status: response.status, ms: performance.now() - killed };
}

describe('a Prism process that exits', () => {
  it.each(['current', 'legacy'] as const)('is replaced by the spare within 2 s, said in one line (%s)', { timeout: 60_000 }, async (name) => {
    await mocks.sparesReady();
    const before = said.length;
    const { status, ms } = await killAndAsk(mocks, name);
    expect(status).toBe(200);
    expect(ms).toBeLessThan(2_000);
    expect(said.slice(before)).toEqual([expect.stringMatching(new RegExp(`^Mock of the ${name} interface: Prism exited \\(signal SIGKILL\\); restarted`))]);
  });

  it('is named with its error when a request that bypassed the guard crashed it', { timeout: 60_000 }, async () => {
    await mocks.sparesReady();
    const before = said.length;
    const argv = readFileSync(`/proc/${mocks.prismPids().current}/cmdline`, 'utf8').split('\0');
    const internal = `http://127.0.0.1:${argv[argv.indexOf('--port') + 1]}`;
    expect(await raw(internal, 'POST /check-in-% HTTP/1.1', '{}')).toBe(0);
    for (let waited = 0; said.length === before && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(said.slice(before)).toEqual([expect.stringMatching(/^Mock of the current interface: Prism exited \(URIError: URI malformed\); restarted, answering again after \d+\.\d s$/)]);
    expect((await listGroups(mocks.urls.current)).status).toBe(200);
  });

  it('is started anew without a spare, and not once the mocks are stopped', async () => {
    const lines: string[] = [];
    const other = await startMocks({ ports: { current: 0, legacy: 0 }, log: (line: string) => lines.push(line) });
    const { status } = await killAndAsk(other, 'current');
    expect(status).toBe(200);
    expect(lines).toEqual([expect.stringMatching(/^Mock of the current interface: Prism exited/)]);
    await other.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(lines).toHaveLength(1);
    await expect(listGroups(other.urls.current)).rejects.toThrow();
  }, 60_000);
});
