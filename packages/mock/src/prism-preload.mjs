// Loaded into every Prism process before Prism itself (`node --import`), by index.mjs:
// - each request's target is checked before Prism's handler runs (guard.mjs), so no request target can
//   end the process or get a 500; checking here costs Prism nothing measurable, where a proxy in front
//   of it cost more CPU than Prism's own work per request;
// - a standby (IDV_MOCK_STANDBY=1) loads everything but binds its port only when the supervisor says so,
//   which is how a crashed Prism is replaced at once: the standby takes over the freed port;
// - it tells the supervisor when it listens, and ends when the supervisor's process is gone.
// IDV_MOCK_UNGUARDED=1 leaves the check out: only for the test that shows what it prevents.
import http from 'node:http';
import { originForm, refuse } from './guard.mjs';

const createServer = http.createServer;
http.createServer = function guardedCreateServer(...args) {
  const at = args.findIndex((arg) => typeof arg === 'function');
  if (at >= 0 && process.env.IDV_MOCK_UNGUARDED !== '1') {
    const handler = args[at];
    args[at] = function guarded(req, res) {
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
  this.once('listening', () => process.send?.({ prism: 'listening' }));
  if (process.env.IDV_MOCK_STANDBY !== '1') return listen.apply(this, args);
  const onMessage = (message) => {
    if (message?.prism !== 'listen') return;
    process.off('message', onMessage);
    listen.apply(this, args);
  };
  process.on('message', onMessage);
  process.send?.({ prism: 'loaded' });
  return this;
};

process.on('disconnect', () => process.exit(0));
