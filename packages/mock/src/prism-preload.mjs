// Loaded into every Prism process before Prism itself (`node --import`), by index.mjs:
// - each request's target is checked before Prism's handler runs (guard.mjs), so no request target can
//   end the process or get a 500; checking here costs Prism nothing measurable, where a proxy in front
//   of it cost more CPU than Prism's own work per request;
// - Prism binds no port of its own: it loads everything, says so, and accepts on the listening socket the
//   supervisor hands it. The supervisor keeps that socket open throughout, so a connection is never refused:
//   a new Prism (a reload, or a standby replacing one that exited) accepts on the same socket, the one it
//   replaces is told to drain (stop accepting, answer what it has with `Connection: close`, then end);
// - it tells the supervisor when it listens, and ends when the supervisor's process is gone;
// - a warm Prism (IDV_MOCK_WARM=1, to replace one that exits) loads Prism's modules, says so, and holds Prism's command
//   line until the supervisor names the document: loading the modules is most of a Prism's start (1.7 to
//   1.9 s of CPU, against 0.45 s for the current description's document and server);
// - a Prism told a new document in place (`{ prism: 'document', inPlace: true, path, ask }`) makes a second
//   server of it beside the one serving, with the options of its command line, and says when it is loaded
//   (`{ prism: 'loaded', server, ask }`) or that it failed; the supervisor then has it accept on the same
//   socket and retires the old server (`{ prism: 'retire', server }`: it stops accepting and answers what it
//   has with `Connection: close`), so a reload needs no new process: no module loaded again, no warm Prism
//   started after it (issue 16: 1.4 to 1.8 s of CPU per save).
// The servers of a process are numbered from 1 in the order Prism makes them; messages name the one meant.
// IDV_MOCK_UNGUARDED=1 leaves the check out: only for the test that shows what it prevents.
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { originForm, refuse } from './guard.mjs';

// How long a draining Prism waits for its open connections (idle ones close after Node's 5 s keep-alive).
const drainLimitMs = 10_000;
// Servers told to drain or retire: their answers say `Connection: close`.
const draining = new WeakSet();
// Each server's own request handler (Prism's), and the server told to listen last: from the moment a new
// server is told to listen, a request that reaches an older one on a connection it still holds
// (keep-alive) is answered by the new one, from the new document, rather than from the old one.
const handlerOf = new WeakMap();
let serving;
const require = createRequire(import.meta.url);

const createServer = http.createServer;
http.createServer = function guardedCreateServer(...args) {
  const at = args.findIndex((arg) => typeof arg === 'function');
  if (at >= 0 && process.env.IDV_MOCK_UNGUARDED !== '1') {
    const handler = args[at];
    args[at] = function guarded(req, res) {
      if (draining.has(this)) res.setHeader('Connection', 'close');
      const path = originForm(req.url ?? '');
      if (path === null) return refuse(req, res);
      req.url = path;
      const answering = serving && handlerOf.has(serving) ? serving : this;
      return (handlerOf.get(answering) ?? handler).call(answering, req, res);
    };
    const server = createServer.apply(this, args);
    handlerOf.set(server, handler);
    return server;
  }
  return createServer.apply(this, args);
};

/** The servers Prism made that have not been retired, by number: each with what its `listen` was called with. */
const servers = new Map();
let serversMade = 0;
// The in-place load under way (they run one at a time): its `ask` goes back with the server it made.
let loading;

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function listenWhenTold(...args) {
  const server = this;
  const number = ++serversMade;
  const callbacks = args.filter((arg) => typeof arg === 'function');
  server.once('listening', () => process.send?.({ prism: 'listening', server: number }));
  if (!process.send) return listen.apply(server, args);
  servers.set(number, { server, args, callbacks });
  process.send({ prism: 'loaded', server: number, ask: loading?.ask });
  loading?.made();
  return server;
};

/** Stops `server` accepting: net's close, not http's (see 'drain'); `then` once its connections are done. */
function retire(number, then = () => {}) {
  const entry = servers.get(number);
  if (!entry) return then();
  servers.delete(number);
  draining.add(entry.server);
  if (entry.server.listening) net.Server.prototype.close.call(entry.server, () => then());
  else then();
}

if (process.send) {
  process.on('message', (message, handle) => {
    if (message?.prism === 'listen') {
      const entry = servers.get(message.server ?? 1);
      if (!entry) return;
      serving = entry.server;
      // Without a handle (an older supervisor), the port Prism was told.
      if (handle) listen.call(entry.server, handle, ...entry.callbacks);
      else listen.apply(entry.server, entry.args);
    } else if (message?.prism === 'retire') {
      retire(message.server);
    } else if (message?.prism === 'drain') {
      // net's close, not http's: http's would also cut idle keep-alive connections, whose clients may be
      // sending on them this instant; each ends at its next answer (Connection: close) or its idle timeout.
      let open = servers.size;
      for (const number of [...servers.keys()]) retire(number, () => --open === 0 && process.exit(0));
      if (!open) process.exit(0);
      setTimeout(() => process.exit(0), drainLimitMs).unref();
    } else if (message?.prism === 'document' && message.inPlace) {
      loadInPlace(message);
    }
  });
}

// Prism's command line makes its server through this module's createSingleProcessPrism, read at the call:
// wrapped, it gives the options of the command line, for the servers made in place.
const prismServers = require(require.resolve('@stoplight/prism-cli/dist/util/createServer.js'));
const createPrism = prismServers.createSingleProcessPrism;
let commandLineOptions;
prismServers.createSingleProcessPrism = (options) => {
  commandLineOptions ??= options;
  return createPrism(options);
};

let loads = Promise.resolve();
/** A server of the document `path` beside the one serving: loaded, then held until told to listen. */
function loadInPlace({ path, ask }) {
  loads = loads.then(async () => {
    if (!commandLineOptions) return process.send({ prism: 'failed', ask, error: 'Prism has not started yet' });
    // Prism's promise resolves only once the new server listens: the load ends when the server is made
    // (listenWhenTold said 'loaded'), or when Prism fails to make it.
    const made = new Promise((resolve) => (loading = { ask, made: () => resolve(undefined) }));
    const failed = createPrism({ ...commandLineOptions, document: path }).then(() => new Promise(() => {}), (error) => error);
    const error = await Promise.race([made, failed]);
    loading = undefined;
    if (error) process.send({ prism: 'failed', ask, error: String(error?.message ?? error) });
  });
}

process.on('disconnect', () => process.exit(0));

if (process.env.IDV_MOCK_WARM === '1' && process.send) {
  // What Prism's command line requires, in Node's module cache before it runs: the same files, so its own
  // requires find them there. Not yargs: it reads process.argv when first required.
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
