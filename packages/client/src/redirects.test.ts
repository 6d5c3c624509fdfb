// A redirect is not followed: fetch would send the key again (in the body, or in x-company-key for an
// operation sent as a GET) to the Location, wherever it points. Real node:http servers on 127.0.0.1, so
// that what fetch itself does with a 3xx is what is tested.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createSandboxClient, IdvNetworkError } from './index.js';
import { fakeKey } from './fake-fetch.test-helper.js';

const heard: string[] = [];
let status = 307;
const servers: Server[] = [];

async function listen(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

let baseUrl = '';
beforeAll(async () => {
  // Where the redirects point: it records whatever reaches it.
  const elsewhere = await listen((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      heard.push(`${req.method} ${req.url} ${req.headers['x-company-key'] ?? ''} ${body}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":[]}');
    });
  });
  baseUrl = await listen((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { location: `${elsewhere}${req.url}` }).end());
  });
});
afterAll(() => {
  for (const server of servers) server.close();
});

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])('a %i answer is not followed: the call fails and the Location hears nothing', async (code) => {
    status = code;
    heard.length = 0;
    const settings = { companyKey: fakeKey, baseUrl, rateLimit: false as const, retry: false as const };
    const idv = createClient(settings);
    const error = await idv.addBlacklistRecord({ query: { reason: 'Forged document', documentNumber: '12AB34567' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvNetworkError);
    expect((error as IdvNetworkError).reason).toBe('network');
    // What Node's fetch says, under its "fetch failed": the README points there.
    expect(((error as Error).cause as Error).cause).toMatchObject({ message: 'unexpected redirect' });
    // An operation sent as a GET carries the key in a header instead.
    const control = createSandboxClient({ ...settings, throwOnError: false });
    expect((await control.listCallbacks()).error).toBeInstanceOf(IdvNetworkError);
    expect(heard).toEqual([]);
  });
});
