import { lookup } from 'node:dns/promises';
// The function node:cluster binds its shared sockets with: a bound socket that nothing accepts on yet.
import { _createServerHandle, createServer, isIP } from 'node:net';
import { getSystemErrorName } from 'node:util';

/** The preferred port when it is free on host, else any free port there. */
export function freePort(host, preferred = 0) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => {
      if (error.code === 'EADDRINUSE' && preferred !== 0) resolve(freePort(host, 0));
      else reject(error);
    });
    probe.listen(preferred, host, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A TCP socket bound on host to the preferred port when it is free (else any free port), for Prism processes
 * to listen on in turn (index.mjs): whoever holds it open keeps the port, so it never refuses a connection
 * while one Prism hands over to another. Resolves to `{ socket, port }`; `socket.close()` frees it.
 */
export async function listeningSocket(host, preferred = 0) {
  const address = isIP(host) ? host : (await lookup(host)).address;
  // libuv reports a taken port only when the socket starts listening, in the Prism; ask first.
  const port = await freePort(address, preferred);
  const socket = _createServerHandle(address, port, isIP(address));
  if (typeof socket === 'number') throw Object.assign(new Error(`cannot bind ${address}:${port}: ${getSystemErrorName(socket)}`), { code: getSystemErrorName(socket) });
  const bound = {};
  socket.getsockname(bound);
  return { socket, port: bound.port };
}
