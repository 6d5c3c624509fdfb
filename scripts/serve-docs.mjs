// Serves the built API reference (docs/dist) on 127.0.0.1.
import { createServer } from 'node:http';
import sirv from 'sirv';

export function serveDocs({ host = '127.0.0.1', port = 4000, dir = 'docs/dist' } = {}) {
  const handler = sirv(dir, { dev: true, etag: true });
  const server = createServer((req, res) => handler(req, res, () => {
    res.statusCode = 404;
    res.end('Not found');
  }));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({ url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`, stop: () => new Promise((done) => server.close(() => done())) });
    });
  });
}
