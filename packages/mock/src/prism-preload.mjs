// Loaded into every Prism process before Prism itself (`node --import`), by index.mjs:
// - each request's target is checked before Prism's handler runs (guard.mjs), so no request target can
//   end the process or get a 500; checking here costs Prism nothing measurable, where a proxy in front
//   of it cost more CPU than Prism's own work per request;
// - Prism binds no port of its own: it loads everything, says so, and accepts on the listening socket the
//   supervisor hands it. The supervisor keeps that socket open throughout, so a connection is never refused:
//   a new Prism (a reload, or a standby replacing one that exited) accepts on the same socket, the one it
//   replaces is told to drain (stop accepting, answer what it has with `Connection: close`, then end);
// - it tells the supervisor when it listens, and ends when the supervisor's process is gone;
// - a warm Prism (IDV_MOCK_WARM=1, for reloads) loads Prism's modules, says so, and holds Prism's command
//   line until the supervisor names the document: loading the modules is most of a Prism's start (1.7 to
//   1.9 s of CPU, against 0.45 s for the current description's document and server).
// IDV_MOCK_UNGUARDED=1 leaves the check out: only for the test that shows what it prevents.
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { originForm, refuse } from './guard.mjs';

// How long a draining Prism waits for its open connections (idle ones close after Node's 5 s keep-alive).
const drainLimitMs = 10_000;
let draining = false;

const createServer = http.createServer;
http.createServer = function guardedCreateServer(...args) {
  const at = args.findIndex((arg) => typeof arg === 'function');
  if (at >= 0 && process.env.IDV_MOCK_UNGUARDED !== '1') {
    const handler = args[at];
    args[at] = function guarded(req, res) {
      if (draining) res.setHeader('Connection', 'close');
      const path = originForm(req.url ?? '');
      if (path === null) return refuse(req, res);
      req.url = path;
      return handler.call(this, req, res);
    };
  }
  return createServer.apply(this, args);
};

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function listenWhenTold(...args) {
  const server = this;
  const callbacks = args.filter((arg) => typeof arg === 'function');
  server.once('listening', () => process.send?.({ prism: 'listening' }));
  if (!process.send) return listen.apply(server, args);
  const onMessage = (message, handle) => {
    if (message?.prism === 'listen') {
      // Without a handle (an older supervisor), the port Prism was told.
      if (handle) listen.call(server, handle, ...callbacks);
      else listen.apply(server, args);
    } else if (message?.prism === 'drain') {
      process.off('message', onMessage);
      draining = true;
      // net's close, not http's: http's would also cut idle keep-alive connections, whose clients may be
      // sending on them this instant; each ends at its next answer (Connection: close) or its idle timeout.
      net.Server.prototype.close.call(server, () => process.exit(0));
      setTimeout(() => process.exit(0), drainLimitMs).unref();
    }
  };
  process.on('message', onMessage);
  process.send({ prism: 'loaded' });
  return server;
};

process.on('disconnect', () => process.exit(0));

if (process.env.IDV_MOCK_WARM === '1' && process.send) {
  // What Prism's command line requires, in Node's module cache before it runs: the same files, so its own
  // requires find them there. Not yargs: it reads process.argv when first required.
  const require = createRequire(import.meta.url);
  for (const command of ['mock', 'proxy']) require(require.resolve(`@stoplight/prism-cli/dist/commands/${command}.js`));
  const document = await new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.prism !== 'document') return;
      process.off('message', onMessage);
      resolve(message.path);
    };
    process.on('message', onMessage);
    process.send({ prism: 'warm' });
  });
  process.argv[process.argv.indexOf('mock') + 1] = document;
}
