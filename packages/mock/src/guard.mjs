// The public port of a mock: a small node:http proxy in front of Prism. Prism throws on some request
// targets (an uncaught URIError on `/check-in-%` ends its process; `//[` gets a 500), so a target must be
// a well-formed path before Prism sees it. While Prism is being restarted, requests wait for it instead of
// being refused.
import { Agent, createServer, request } from 'node:http';

const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect', 'host']);

/**
 * The origin-form path Prism may be given for a request target, or null when the target is malformed:
 * not a path (or an absolute URL, which becomes its path), a path that starts with `//` (which URL parsers
 * read as a host), or bad percent-encoding anywhere.
 */
export function originForm(target) {
  let path = target;
  if (!target.startsWith('/')) {
    if (!/^https?:\/\//i.test(target)) return null;
    try {
      const url = new URL(target);
      path = url.pathname + url.search;
    } catch {
      return null;
    }
  }
  if (path.startsWith('//')) return null;
  try {
    decodeURIComponent(path);
  } catch {
    return null;
  }
  return path;
}

function problem(res, status, title, detail) {
  const body = JSON.stringify({ title, status, detail });
  res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function copyHeaders(raw) {
  const headers = {};
  for (const [name, value] of Object.entries(raw)) if (!hopByHop.has(name)) headers[name] = value;
  return headers;
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A server that checks each request target and forwards the request to Prism on 127.0.0.1.
 * `upstream()` resolves with Prism's port once it answers (it waits through a restart). Connections to
 * Prism are kept alive (a new connection per request halved the throughput); a request's body is sent only
 * once its connection is up, so a request refused by a Prism that has just exited is sent again to the
 * restarted one. One that Prism had already taken when it died gets a 502.
 */
export function createGuard({ upstream, retryMs = 30_000, agent = new Agent({ keepAlive: true }) }) {
  async function forward(req, res, path, deadline) {
    let port;
    try {
      port = await upstream();
    } catch {
      req.resume();
      return problem(res, 503, 'Mock unavailable', 'Prism could not be restarted.');
    }
    const headers = copyHeaders(req.headers);
    headers.host = `127.0.0.1:${port}`;
    const out = request({ host: '127.0.0.1', port, method: req.method, path, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, copyHeaders(answer.headers));
      answer.pipe(res);
    });
    let sending = false;
    out.on('socket', (socket) => {
      const send = () => {
        sending = true;
        req.pipe(out);
      };
      if (socket.connecting) socket.once('connect', send);
      else send();
    });
    out.on('error', () => {
      if (!sending && !res.destroyed && Date.now() < deadline) return void delay(25).then(() => forward(req, res, path, deadline));
      // Prism went away in the middle of this request: say so, never hang.
      if (!res.headersSent) problem(res, 502, 'Mock restarting', 'Prism exited while answering; it is being restarted.');
      else res.destroy();
    });
    res.once('close', () => {
      if (!res.writableFinished) out.destroy();
    });
  }

  const server = createServer((req, res) => {
    const path = originForm(req.url ?? '');
    if (path === null) {
      req.resume();
      return problem(res, 400, 'Malformed request target', 'The request target must be a path with valid percent-encoding.');
    }
    req.pause();
    forward(req, res, path, Date.now() + retryMs);
  });
  server.on('close', () => agent?.destroy());
  return server;
}
