import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, createSandboxClient, type RequestInfo, type ResponseInfo } from './index.js';
import { version } from './version.js';
import { baseUrl, fakeClock, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const settings = { companyKey: fakeKey, baseUrl, rateLimit: false as const };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const header = (init: RequestInit, name: string) => new Headers(init.headers).get(name);

function captureLogger() {
  const lines: string[] = [];
  const logger = { debug: (m: string) => lines.push(`debug ${m}`), info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`) };
  return { lines, logger };
}

describe('request ids', () => {
  it('are a new UUID per call, sent as X-Request-Id, the same on every attempt, and on the result', async () => {
    const { fetch, sent } = fakeFetch((_r, i) => (i === 1 ? new Response('', { status: 503 }) : json({ result: [] })));
    const idv = createClient({ ...settings, fetch, clock: fakeClock(), throwOnError: false });
    const first = await idv.listUsers();
    const second = await idv.listUsers();
    const ids = sent.map((s) => header(s.init, 'x-request-id'));
    expect(ids[0]).toMatch(uuid);
    expect(ids[1]).not.toBe(ids[0]);
    expect(ids[2]).toBe(ids[1]);
    expect(first.requestId).toBe(ids[0]);
    expect(second.requestId).toBe(ids[1]);
  });

  it('may be given per call', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    await createClient({ ...settings, fetch }).listUsers(undefined, { requestId: 'order-42' });
    expect(header(sent[0]!.init, 'x-request-id')).toBe('order-42');
  });
});

describe('the User-Agent', () => {
  it('names the package, its version and Node', async () => {
    const { fetch, sent } = fakeFetch(() => json({ result: [] }));
    await createClient({ ...settings, fetch }).listUsers();
    expect(header(sent[0]!.init, 'user-agent')).toBe(`idv-toolkit-client/${version} node/${process.versions.node}`);
  });
});

describe('logging', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is off unless asked for', async () => {
    const { lines, logger } = captureLogger();
    const { fetch } = fakeFetch(() => json({ result: [] }));
    await createClient({ ...settings, fetch, logger }).listUsers();
    expect(lines).toEqual([]);
  });

  it('writes a line per attempt at debug, per call at info, retries and failures at warn, each with the request id', async () => {
    const { lines, logger } = captureLogger();
    const { fetch } = fakeFetch((_r, i) => (i === 0 ? new Response('', { status: 503 }) : i === 1 ? json({ result: [] }) : json({ argumentError: 'user-not-found' }, 400)));
    const idv = createClient({ ...settings, fetch, logger, logLevel: 'debug', clock: fakeClock(), random: () => 0 });
    const { requestId } = await idv.listUsers.withResponse();
    await idv.deleteUser({ userId: 'u-1' }).catch(() => undefined);
    const line = (text: string) => new RegExp(`^${text.replace(/[()[\]]/g, '\\$&').replace(' # ms', ' \\d+ ms').replace('#', '.*')}$`);
    expect(lines.slice(0, 5)).toEqual(
      [
        `debug [idv] ${requestId} listUsers: POST ${baseUrl}/list-users (attempt 1)`,
        `warn [idv] ${requestId} listUsers: HTTP 503, retry 1 of 2 in 0 ms`,
        `debug [idv] ${requestId} listUsers: POST ${baseUrl}/list-users (attempt 2)`,
        `info [idv] ${requestId} listUsers: HTTP 200 in # ms, attempt 2`,
        `debug [idv] #`,
      ].map((text) => expect.stringMatching(line(text))),
    );
    expect(lines.at(-1)).toMatch(/^warn \[idv\] [0-9a-f-]{36} deleteUser failed with HTTP 400: user-not-found \(request id [0-9a-f-]{36}\)$/);
  });

  it('takes its level from IDV_LOG, and the option wins over it', async () => {
    vi.stubEnv('IDV_LOG', 'warn');
    const { lines, logger } = captureLogger();
    const { fetch } = fakeFetch((_r, i) => (i === 0 ? json({ result: [] }) : json({ argumentError: 'user-not-found' }, 400)));
    const idv = createClient({ ...settings, fetch, logger });
    await idv.listUsers();
    await idv.deleteUser({ userId: 'u-1' }).catch(() => undefined);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn .*deleteUser failed/);
    const quiet = createClient({ ...settings, fetch, logger, logLevel: 'off' });
    await quiet.deleteUser({ userId: 'u-1' }).catch(() => undefined);
    expect(lines).toHaveLength(1);
    vi.stubEnv('IDV_LOG', 'debug');
    await createClient({ ...settings, fetch, logger }).listUsers().catch(() => undefined);
    expect(lines.length).toBeGreaterThan(2);
  });

  it('never writes the key, a body or a header value, even at debug and for a GET operation', async () => {
    const { lines, logger } = captureLogger();
    const { fetch } = fakeFetch((_r, i) => (i === 0 ? json({ result: [] }) : json({ argumentError: 'invalid-company-key', echo: fakeKey }, 400)));
    await createSandboxClient({ ...settings, fetch, logger, logLevel: 'debug' }).listCallbacks().catch(() => undefined);
    await createClient({ ...settings, fetch, logger, logLevel: 'debug' }).listUsers().catch(() => undefined);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.join('\n')).not.toContain(fakeKey);
  });
});

describe('hooks', () => {
  it('see every attempt: onRequest before it is sent (and may add headers), onResponse after', async () => {
    const requests: RequestInfo[] = [];
    const responses: ResponseInfo[] = [];
    const { fetch, sent } = fakeFetch((_r, i) => (i === 0 ? Promise.reject(new TypeError('fetch failed')) : json({ result: [] })));
    const idv = createClient({
      ...settings,
      fetch,
      clock: fakeClock(),
      onRequest: (info) => {
        requests.push(structuredClone(info));
        info.headers.traceparent = '00-trace-01';
      },
      onResponse: (info) => responses.push(info),
    });
    await idv.listUsers();
    expect(requests.map((r) => [r.operation, r.attempt, r.method, r.url])).toEqual([
      ['listUsers', 1, 'POST', `${baseUrl}/list-users`],
      ['listUsers', 2, 'POST', `${baseUrl}/list-users`],
    ]);
    expect(requests[0]!.requestId).toMatch(uuid);
    expect(JSON.stringify(requests)).not.toContain(fakeKey);
    expect(header(sent[1]!.init, 'traceparent')).toBe('00-trace-01');
    expect(responses[0]!.error).toBeInstanceOf(TypeError);
    expect(responses[0]!.response).toBeUndefined();
    expect(responses[1]!.response?.status).toBe(200);
    expect(responses[1]!.requestId).toBe(requests[0]!.requestId);
  });
});

describe('withResponse', () => {
  it('gives the data with the answer and the request id in throwing mode', async () => {
    const { fetch } = fakeFetch(() => new Response(JSON.stringify({ result: [] }), { headers: { 'content-type': 'application/json', 'x-served-by': 'edge-1' } }));
    const { data, response, requestId } = await createClient({ ...settings, fetch }).listGroups.withResponse();
    expect(data).toEqual({ result: [] });
    expect(response.headers.get('x-served-by')).toBe('edge-1');
    expect(requestId).toMatch(uuid);
  });

  it('rejects with the typed error, whose response is reachable too', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'user-not-found' }, 400));
    await expect(createClient({ ...settings, fetch }).deleteUser.withResponse({ userId: 'u' })).rejects.toMatchObject({ code: 'user-not-found', response: { status: 400 } });
  });
});
