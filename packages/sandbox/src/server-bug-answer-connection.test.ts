// A bug of the sandbox (a handler that throws something no operation answers with) is answered 500 with
// its JSON error (server.ts `failed`), and the connection stays open: the client's next request on it is
// answered as usual, as after any other answer of the API.
import { Agent, request } from 'node:http';
import { afterEach, expect, it, vi } from 'vitest';
import { demoCompanyKey } from './companies.js';
import { allHandlers } from './handlers/index.js';
import { createSandbox, type Sandbox } from './server.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox?.close();
  sandbox = undefined;
});

/** POSTs `body` on `agent`'s kept connection: the status, the connection header, the body, and whether the socket was reused. */
function post(origin: string, agent: Agent, path: string, body: unknown) {
  return new Promise<{ status: number; connection: string | undefined; body: unknown; reused: boolean }>((resolve, reject) => {
    const req = request(origin + path, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

it('answers a handler bug 500 and keeps the connection for the next request', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  sandbox = createSandbox({
    handlers: {
      ...allHandlers,
      listGroups: () => {
        throw new TypeError('a bug in a handler');
      },
    },
    rateLimit: 1_000_000,
  });
  const origin = await sandbox.listen(0);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const bug = await post(origin, agent, '/list-groups', { companyKey: demoCompanyKey });
    expect(bug).toEqual({ status: 500, connection: 'keep-alive', body: { error: 'sandbox internal error' }, reused: false });
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ message: 'a bug in a handler' }));
    const next = await post(origin, agent, '/list-groups', { companyKey: demoCompanyKey });
    expect(next).toMatchObject({ status: 500, connection: 'keep-alive', reused: true });
  } finally {
    agent.destroy();
  }
});
