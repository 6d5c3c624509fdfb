// An attempt given up on by its timeout is aborted, so that the connection of a server that never answers
// is closed then, not held until Node's own 300 s timeouts. A real node:http server on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { createClient, IdvNetworkError } from './index.js';
import { fakeKey } from './fake-fetch.test-helper.js';

let server: Server | undefined;
afterAll(() => {
  server?.closeAllConnections();
  server?.close();
});

it('closes the connection of an attempt that timed out', async () => {
  const sockets: Socket[] = [];
  server = createServer((req) => req.resume());
  server.on('connection', (socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const idv = createClient({ companyKey: fakeKey, baseUrl: `http://127.0.0.1:${port}`, rateLimit: false, retry: false, timeoutMs: 1_000 });
  const error = await idv.addBlacklistRecord({ query: { reason: 'Forged document', documentNumber: '12AB34567' } }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(IdvNetworkError);
  expect((error as IdvNetworkError).reason).toBe('timeout');
  // The socket that carried the attempt closes (the test would time out if it never did).
  const carried = sockets[0]!;
  if (!carried.destroyed) await new Promise((resolve) => carried.once('close', resolve));
  expect(carried.destroyed).toBe(true);
});
