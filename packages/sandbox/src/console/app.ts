// The sandbox console at /console/ on the sandbox's own origin: server-rendered pages over the control
// API. Signing in puts the company key (or the admin token) in an HttpOnly, SameSite=Strict cookie
// scoped to /console: never in a URL, never written into a page. Every page reads, and every button acts,
// through an operation of the control API (or the API), run in-process for the signed-in company, so a
// script can do all the console does. Live updates come by server-sent events from /console/events.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Company } from '../companies.js';
import { consoleCss, consoleJs } from './assets.js';
import { Markup } from './html.js';
import { layout } from './layout.js';
import { callbacksPage } from './pages-callbacks.js';
import { blacklistPage, monitoringPage, usersPage } from './pages-data.js';
import { operatorRef, rateLimitPage } from './pages-limits.js';
import { requestPage, requestsPage } from './pages-requests.js';
import { sessionPage, sessionsPage } from './pages-sessions.js';
import type { RequestLog } from './request-log.js';
import type { ConsoleDispatcher, ConsoleLimiter } from './services.js';
import { CallError, type Invoke, type Page, type View, type Viewer } from './view.js';

export const cookieName = 'idv_console';
const maxFormBytes = 16 * 1024;
/** Open event streams at once (our choice): each looks at the callback log four times a second. */
export const maxStreams = 64;

/** The operation behind each kind of media a session page shows (current ones answer a data URI, legacy ones bytes). */
const mediaSources: Record<string, string> = {
  'face-photo': 'getSessionMainDocumentFacePhoto',
  pdf: 'exportSessionAsPdf',
  'card-front': 'legacyGetCardFront',
  'card-back': 'legacyGetCardBack',
  face: 'legacyGetFace',
  video: 'legacyGetFaceVideo',
  captions: '',
};
const mediaTypes: Record<string, string> = { 'card-front': 'image/jpeg', 'card-back': 'image/jpeg', face: 'image/jpeg', video: 'video/mp4' };
/** The liveness video has no speech: its captions say so (a video without a captions track fails accessibility checks). */
const captions = 'WEBVTT\n\n00:00.000 --> 00:10.000\n[Liveness video of the applicant, no speech]\n';

const securityHeaders = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on our own forms.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

export type ConsoleApp = {
  /** Answers a request whose path is /console or under /console/. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, origin: string): Promise<void>;
  /** Tells open consoles that something changed (the request log tells them by itself). */
  changed(): void;
  close(): void;
};

export type ConsoleOptions = { companies: Map<string, Company>; adminToken?: string; invoke: Invoke; ring: RequestLog; limiter: ConsoleLimiter; dispatcher: ConsoleDispatcher };

const actions: Record<string, (call: (op: string, fields?: Record<string, unknown>) => Promise<unknown>, f: Record<string, string>) => Promise<string>> = {
  complete: async (call, f) => (await call('sandboxCompleteSession', { sessionId: f.sessionId, result: f.result }), `Session finished as ${f.result}.`),
  'additional-information': async (call, f) => (await call('sandboxRequestAdditionalInformation', { sessionId: f.sessionId }), 'Additional information requested.'),
  expire: async (call, f) => (await call('sandboxExpireSession', { sessionId: f.sessionId }), 'Session expired.'),
  'delete-session': async (call, f) => (await call('deleteSession', { sessionId: f.sessionId }), `Session ${f.sessionId} deleted.`),
  resend: async (call, f) => `Callback queued again as ${await call('sandboxResendCallback', { eventId: f.eventId })}.`,
  delivery: async (call, f) => (await call('sandboxSetCallbackDelivery', { paused: f.paused === 'true' }), f.paused === 'true' ? 'Delivery paused.' : 'Delivery resumed.'),
  unblock: async (call, f) => (await call('sandboxUnblockAddress', { ip: f.ip }), `${f.ip} unblocked.`),
  'remove-blacklist': async (call, f) => (await call('removeBlacklistRecord', { id: f.id }), 'Record removed.'),
  'add-blacklist': async (call, f) => {
    const query = Object.fromEntries(['reason', 'firstName', 'lastName', 'documentNumber'].filter((k) => f[k]).map((k) => [k, f[k]]));
    return `Record ${await call('addBlacklistRecord', { query })} added.`;
  },
  'delete-user': async (call, f) => (await call('deleteUser', { userId: f.userId }), 'User deleted.'),
  'delete-group': async (call, f) => (await call('deleteGroup', { groupId: f.groupId }), 'Group deleted.'),
  'remove-monitoring': async (call, f) => (await call('removeScreeningQueryFromMonitoring', { id: f.id }), 'Name no longer monitored.'),
  'change-watchlist-entry': async (call, f) => (await call('sandboxChangeWatchlistEntry', { personId: f.personId }), `Watchlist entry ${f.personId} changed.`),
};

function readForm(req: IncomingMessage): Promise<Record<string, string> | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxFormBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxFormBytes ? undefined : Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))));
    req.on('error', () => resolve(undefined));
  });
}

/** A path segment decoded, or itself when it is not valid percent-encoding (a bad link is a 404, never a 500). */
const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

function cookieOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName) {
      try {
        return decodeURIComponent(value.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function createConsole(options: ConsoleOptions): ConsoleApp {
  const { companies, adminToken, invoke, ring, dispatcher } = options;
  const all = [...companies.values()];
  const streams = new Set<ServerResponse>();
  const watchers = new Set<() => void>();

  function viewerOf(req: IncomingMessage): Viewer | undefined {
    const secret = cookieOf(req);
    if (!secret) return undefined;
    if (adminToken !== undefined && secret === adminToken) return { admin: true, name: 'the operator (every company)', companies: all };
    const company = companies.get(secret);
    return company ? { admin: false, name: company.name, companies: [company] } : undefined;
  }

  async function call(company: Company, operationId: string, fields: Record<string, unknown> = {}): Promise<any> {
    const answer = await invoke(operationId, { ...fields, companyKey: company.companyKey });
    if (answer.status !== 200) throw new CallError(operationId, answer.json);
    return answer.bytes ?? (answer.json as { result: unknown }).result;
  }

  /** The operator's rate-limit calls: the admin token in place of a company key, for every address. */
  async function operatorCall(operationId: string, fields: Record<string, unknown> = {}): Promise<any> {
    const answer = await invoke(operationId, { ...fields, adminToken });
    if (answer.status !== 200) throw new CallError(operationId, answer.json);
    return (answer.json as { result: unknown }).result;
  }

  const send = (res: ServerResponse, status: number, body: string | Buffer, type: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...securityHeaders, ...headers });
    res.end(body);
  };
  const redirect = (res: ServerResponse, to: string, headers: Record<string, string> = {}) => {
    res.writeHead(303, { location: to, 'content-length': 0, ...securityHeaders, ...headers });
    res.end();
  };
  const signInPage = (res: ServerResponse, status: number, error?: string) =>
    send(
      res,
      status,
      layout(
        'Sign in',
        // The field is never filled in from anything: a key is not written back into a page.
        new Markup(`<form class="signin" method="post" action="/console/sign-in"><p>Sign in with a sandbox company's key to see its requests, sessions and callbacks, or with the sandbox's admin token to see every company.</p><label for="key">Company key or admin token</label><input id="key" name="key" type="password" autocomplete="off" required><button type="submit">Sign in</button></form>`),
        undefined,
        '/console/',
        null,
        error,
      ),
      'text/html; charset=utf-8',
    );

  function notify() {
    for (const stream of streams) stream.write('event: change\ndata: 1\n\n');
  }

  function events(req: IncomingMessage, res: ServerResponse, viewer: Viewer) {
    if (streams.size >= maxStreams) return send(res, 503, 'Too many open consoles', 'text/plain; charset=utf-8', { 'retry-after': '5' });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write('retry: 1000\n\n');
    const own = new Set(viewer.companies.map((c) => c.companyKey));
    const ping = () => res.write('event: change\ndata: 1\n\n');
    const unsubscribe = ring.subscribe((item) => {
      if (viewer.admin || (item.companyKey !== undefined && own.has(item.companyKey))) ping();
    });
    // Callback attempts change without a request (retries, answers): compare a cheap signature.
    const signature = async () => {
      const parts: string[] = [];
      for (const c of viewer.companies) {
        const attempts = await dispatcher.attempts(c.companyKey);
        const last = attempts[attempts.length - 1];
        parts.push(`${attempts.length}:${last?.outcome ?? ''}:${last?.status ?? ''}`);
      }
      return parts.join('|');
    };
    let seen: string | undefined;
    let looking = false;
    const look = async () => {
      if (looking) return;
      looking = true;
      try {
        const now = await signature();
        if (seen !== undefined && now !== seen) ping();
        seen = now;
      } catch {
        // a store that is closing: the next look tries again
      } finally {
        looking = false;
      }
    };
    void look();
    const timer = setInterval(look, 250);
    timer.unref();
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    keepAlive.unref();
    streams.add(res);
    const stop = () => {
      unsubscribe();
      clearInterval(timer);
      clearInterval(keepAlive);
      streams.delete(res);
      watchers.delete(stop);
    };
    watchers.add(stop);
    req.on('close', stop);
  }

  /** A session's media, fetched through the API's own media operations for the company that holds it. */
  async function media(res: ServerResponse, viewer: Viewer, ref: string, sessionId: string, kind: string) {
    const company = all[Number(ref)];
    const source = Object.hasOwn(mediaSources, kind) ? mediaSources[kind] : undefined;
    // `source` is '' for the captions, which no operation serves: only a kind not in the table (nor one of
    // an object's own names, such as `constructor`) is unknown.
    if (!company || !viewer.companies.includes(company) || source === undefined) return send(res, 404, 'Not found', 'text/plain; charset=utf-8');
    if (kind === 'captions') return send(res, 200, captions, 'text/vtt; charset=utf-8');
    const answer = await invoke(source, source.startsWith('legacy') ? { company_key: company.companyKey, session_token: sessionId } : { companyKey: company.companyKey, sessionId, exportSession: true });
    const dataUri = /^data:([^;,]+)(?:;[^,]*)?,(.*)$/s.exec(String((answer.json as { result?: unknown } | undefined)?.result ?? ''));
    const bytes = answer.bytes ? Buffer.from(answer.bytes) : dataUri ? Buffer.from(dataUri[2]!, 'base64') : undefined;
    if (answer.status !== 200 || !bytes) return send(res, 404, 'No such media for this session (yet)', 'text/plain; charset=utf-8');
    send(res, 200, bytes, dataUri?.[1] ?? mediaTypes[kind]!);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, origin: string) {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'POST') {
      req.resume();
      return send(res, 405, 'Method not allowed', 'text/plain; charset=utf-8', { allow: 'GET, POST' });
    }
    if (method === 'GET' && path === '/console/assets/console.css') return send(res, 200, consoleCss, 'text/css; charset=utf-8');
    if (method === 'GET' && path === '/console/assets/console.js') return send(res, 200, consoleJs, 'text/javascript; charset=utf-8');
    // A form posted from another site: SameSite=Strict keeps the cookie off it, and the origin must be ours.
    if (method === 'POST' && req.headers.origin !== undefined && req.headers.origin !== origin && req.headers.origin !== `http://${req.headers.host}`) {
      req.resume();
      return send(res, 403, 'Cross-site form refused', 'text/plain; charset=utf-8');
    }
    if (method === 'POST' && path === '/console/sign-in') {
      const form = await readForm(req);
      const key = form?.key ?? '';
      const known = companies.has(key) || (adminToken !== undefined && key === adminToken);
      if (!known) return signInPage(res, 401, 'No sandbox company has this key (and it is not the admin token).');
      return redirect(res, '/console/requests', { 'set-cookie': `${cookieName}=${encodeURIComponent(key)}; Path=/console; HttpOnly; SameSite=Strict` });
    }
    if (method === 'POST' && path === '/console/sign-out') {
      req.resume();
      return redirect(res, '/console/', { 'set-cookie': `${cookieName}=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0` });
    }
    const viewer = viewerOf(req);
    if (!viewer) {
      req.resume();
      if (method === 'GET' && (path === '/console/' || path === '/console')) return signInPage(res, 200);
      if (method === 'GET' && path !== '/console/events') return redirect(res, '/console/');
      return send(res, 401, 'Sign in first', 'text/plain; charset=utf-8');
    }
    if (method === 'GET' && path === '/console/events') return events(req, res, viewer);
    const view: View = {
      viewer,
      url,
      ring,
      all,
      call,
      ref: (company) => all.indexOf(company),
      nameOf: (key) => (key === undefined ? '(no company)' : (companies.get(key)?.name ?? '(no company)')),
    };
    if (method === 'POST') {
      const name = /^\/console\/act\/([a-z-]+)$/.exec(path)?.[1];
      const run = name === undefined ? undefined : actions[name];
      const form = await readForm(req);
      if (!run || !form) return send(res, 404, 'No such action', 'text/plain; charset=utf-8');
      const company = all[Number(form.c)];
      // An address is nobody's company: the operator unblocks it with the admin token (pages-limits.ts).
      const asOperator = viewer.admin && name === 'unblock' && form.c === String(operatorRef);
      const back = form.back?.startsWith('/console/') && !form.back.startsWith('/console//') ? form.back : '/console/requests';
      if (!asOperator && (!company || !viewer.companies.includes(company))) return redirect(res, `${back}?error=${encodeURIComponent('That is not your company.')}`);
      let message: string;
      let kind = 'notice';
      try {
        message = await run(asOperator ? operatorCall : (op, fields) => call(company!, op, fields), form);
      } catch (error) {
        if (!(error instanceof CallError)) throw error;
        kind = 'error';
        message = `${error.operationId} answered ${JSON.stringify(error.answer)}`;
      }
      notify();
      return redirect(res, `${back}?${kind}=${encodeURIComponent(message)}`);
    }
    const mediaPath = /^\/console\/media\/(\d+)\/([^/]+)\/([a-z-]+)$/.exec(path);
    if (mediaPath) return media(res, viewer, mediaPath[1]!, decoded(mediaPath[2]!), mediaPath[3]!);
    let page: Page | undefined;
    const detail = /^\/console\/(requests|sessions)\/([^/]+)$/.exec(path);
    if (path === '/console/' || path === '/console') return redirect(res, '/console/requests');
    else if (path === '/console/requests') page = await requestsPage(view);
    else if (detail?.[1] === 'requests') page = await requestPage(view, decoded(detail[2]!), origin);
    else if (path === '/console/sessions') page = await sessionsPage(view);
    else if (detail?.[1] === 'sessions') page = await sessionPage(view, decoded(detail[2]!));
    else if (path === '/console/callbacks') page = await callbacksPage(view);
    else if (path === '/console/rate-limit') page = await rateLimitPage(view, viewer.admin ? operatorCall : undefined);
    else if (path === '/console/blacklist') page = await blacklistPage(view);
    else if (path === '/console/users') page = await usersPage(view);
    else if (path === '/console/monitoring') page = await monitoringPage(view);
    if (!page) return send(res, 404, layout('Not found', new Markup('<p>No such console page. <a href="/console/requests">Requests</a></p>'), viewer, path), 'text/html; charset=utf-8');
    if (req.headers['x-console-live'] === '1' && page.live) return send(res, 200, page.live.text, 'text/html; charset=utf-8');
    send(res, page.status ?? 200, layout(page.title, page.body, viewer, path, url.searchParams.get('notice'), url.searchParams.get('error')), 'text/html; charset=utf-8');
  }

  return {
    handle,
    changed: notify,
    close() {
      for (const stop of [...watchers]) stop();
      for (const stream of streams) stream.end();
    },
  };
}
