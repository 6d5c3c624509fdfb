import { createServer } from 'node:net';

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
