// The sandbox's HTTP server: one origin for the current interface, the legacy interface, the applicant
// page and the control API. Each request is routed, read, checked against the operation's schema and
// the company key, and answered by its handler or with the operation's documented error.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BadInput, readBody } from './body.js';
import { createDispatcher, defaultDeliveryPolicy, type DeliveryPolicy, type Dispatcher } from './callbacks.js';
import { systemClock, type Clock } from './clock.js';
import { documented } from './codes.js';
import { demoCompanies, type Company } from './companies.js';
import type { Context, Handlers, Reply } from './context.js';
import { ApiError } from './errors.js';
import { allHandlers } from './handlers/index.js';
import { completeSession } from './handlers/control.js';
import { createIds, type Ids } from './ids.js';
import { createRateLimiter } from './rate-limit.js';
import { isExpired, record } from './sessions.js';
import { buildRoutes, type Route } from './spec.js';
import { memoryState, type State } from './state.js';
import { widgetPage } from './widget.js';

export type SandboxOptions = {
  companies?: Company[];
  seed?: number;
  clock?: Clock;
  /** Requests a minute per IP before 529 (default 600, as the service). */
  rateLimit?: number;
  /** How long an IP over the limit stays blocked (default 3600 s, as the service). */
  blockSeconds?: number;
  handlers?: Handlers;
  /** Retry policy of callback deliveries (tests shorten the delays). */
  deliveryPolicy?: DeliveryPolicy;
};

/** Codes for a request whose key names no company, most specific first (Parts 5 and 7). */
const keyCodes = ['invalid-company-key', 'company-missing', 'invalid-access', 'session-not-found', 'wrong-parameters', 'not-found'];
/** Codes for a request that is malformed or breaks its schema. */
const badInputCodes = ['wrong-parameters', 'session-not-found', 'not-found', 'access-denied'];

/** create-user names the rule a bad field breaks (Part 7); other operations say wrong-parameters. */
const fieldCodes: Record<string, Record<string, string>> = {
  createUser: { email: 'invalid-email-format', password: 'password-too-short', rights: 'invalid-rights' },
};

function json(res: ServerResponse, status: number, body: unknown, close = false) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(close ? { connection: 'close' } : {}) });
  res.end(text);
}

function firstField(problem: { instancePath: string; params: Record<string, unknown> }): string {
  const missing = problem.params.missingProperty;
  return typeof missing === 'string' ? missing : (problem.instancePath.split('/')[1] ?? '');
}

/** A sandbox server with its state, not yet listening. */
export type Sandbox = {
  server: Server;
  routes: Route[];
  handlers: Handlers;
  state: State;
  /** The companies by company key. */
  companies: Map<string, Company>;
  dispatcher: Dispatcher;
  /** Forgets every session, record and callback, as `POST /sandbox/reset`. */
  reset(): void;
  /** Starts listening; resolves to the origin, e.g. http://127.0.0.1:4020. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
};

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const seed = options.seed ?? 1;
  const clock = options.clock ?? systemClock;
  const companies = new Map((options.companies ?? demoCompanies()).map((c) => [c.companyKey, c]));
  const routes = buildRoutes();
  const handlers = options.handlers ?? allHandlers;
  const state: State = memoryState();
  const limiter = createRateLimiter({ perMinute: options.rateLimit ?? 600, blockMs: (options.blockSeconds ?? 3600) * 1000, clock });
  let ids: Ids = createIds(seed);
  // Jitter of callback retries from its own seeded sequence, so that retries do not shift the IDs.
  const dispatcher = createDispatcher({ clock, random: createIds(seed ^ 0x5eed).random, policy: options.deliveryPolicy ?? defaultDeliveryPolicy });
  let origin = 'http://127.0.0.1';

  const fail = (res: ServerResponse, route: Route, code: string, extra: Record<string, unknown> = {}, close = false) =>
    json(res, 400, { [route.errorKey]: code, ...extra }, close);

  const contextFor = (route: Route, company: Company, body: Record<string, any>, files: Context['files'], params: Record<string, string>): Context => ({
    route,
    company,
    body,
    files,
    params,
    state,
    clock,
    ids,
    origin,
    emit: (event) => dispatcher.enqueue(company, event),
    callbackAttempts: () => dispatcher.attempts(company.companyKey),
  });

  function reset() {
    state.clear();
    ids = createIds(seed);
    limiter.reset();
    dispatcher.clear();
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, route: Route, url: URL) {
    let fields: Record<string, any>;
    let files: Context['files'] = {};
    try {
      ({ fields, files } = route.body === 'query' ? { fields: Object.fromEntries(url.searchParams), files: {} } : await readBody(req, route.body));
    } catch (error) {
      if (error instanceof BadInput) return fail(res, route, documented({ route }, ...badInputCodes), {}, error.unread);
      throw error;
    }
    if (route.operationId === 'sandboxReset') {
      reset();
      return json(res, 200, { result: true });
    }
    if (route.operationId === 'createUser' && 'password' in fields && typeof fields.password !== 'string') {
      return json(res, 400, { internalError: `Illegal arguments: password must be a string, got ${fields.password === null ? 'null' : typeof fields.password}` });
    }
    const body = { ...fields };
    for (const field of route.jsonTextFields) {
      if (typeof fields[field.name] !== 'string') continue;
      try {
        body[field.name] = JSON.parse(fields[field.name]);
      } catch {
        return fail(res, route, documented({ route }, ...badInputCodes));
      }
      if (!field.validate(body[field.name])) return fail(res, route, documented({ route }, ...badInputCodes));
    }
    const checked = { ...fields, ...Object.fromEntries(Object.keys(files).map((name) => [name, '(file)'])) };
    if (!route.validate(checked)) {
      const problem = route.validate.errors![0]!;
      const field = firstField(problem);
      const code = fieldCodes[route.operationId]?.[field] ?? documented({ route }, ...badInputCodes);
      return fail(res, route, code, route.codes.includes('wrong-parameters') && /group/i.test(route.operationId) ? { errorSourceGroup: field } : {});
    }
    const company = companies.get(fields.companyKey ?? fields.company_key);
    if (!company) return fail(res, route, documented({ route }, ...keyCodes));
    const handler = handlers[route.operationId];
    if (!handler) return json(res, 501, { error: `The sandbox does not implement ${route.operationId} yet` });
    const params = route.match.exec(url.pathname)?.groups ?? {};
    let reply: Reply;
    try {
      reply = await handler(contextFor(route, company, body, files, params));
    } catch (error) {
      if (error instanceof ApiError) return fail(res, route, error.code, error.extra);
      throw error;
    }
    if ('json' in reply) return json(res, 200, reply.json);
    res.writeHead(200, { 'content-type': reply.contentType, 'content-length': reply.bytes.length });
    res.end(reply.bytes);
  }

  async function handleWidget(req: IncomingMessage, res: ServerResponse, url: URL) {
    const token = url.searchParams.get('session_token') ?? '';
    const owner = state.sessions.ownerOf(token);
    const company = owner === undefined ? undefined : companies.get(owner);
    const session = company ? state.sessions.get(company.companyKey, token) : undefined;
    let message: string | undefined;
    if (req.method === 'POST' && session && company) {
      const route = routes.find((r) => r.operationId === 'sandboxCompleteSession')!;
      const { fields } = await readBody(req, 'multipart').catch(() => ({ fields: {} as Record<string, unknown> }));
      const result = fields.result;
      if (result === 'approved' || result === 'rejected' || result === 'manual-check') {
        try {
          completeSession(contextFor(route, company, {}, {}, {}), session, result);
          message = 'Thank you: the session is finished.';
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          message = 'This session can no longer be finished.';
        }
      }
    } else if (session) record({ ids, clock }, session, 'PAGE_LOADED');
    const html = widgetPage(session, token, session ? isExpired({ clock }, session) : false, message);
    res.writeHead(session ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
    res.end(html);
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/widget/' || url.pathname === '/widget') return await handleWidget(req, res, url);
      const route = routes.find((r) => r.method === req.method && r.match.test(url.pathname));
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('Not found');
      }
      if (route.api !== 'sandbox' && !limiter.allow(req.socket.remoteAddress ?? '')) {
        req.resume();
        res.writeHead(529, { 'content-type': 'text/plain' });
        return res.end('Too many requests');
      }
      await handleApi(req, res, route, url);
    } catch (error) {
      // A bug of the sandbox, not of the request: say so plainly, never hang.
      console.error(error);
      if (!res.headersSent) json(res, 500, { error: 'sandbox internal error' });
      else res.end();
    }
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  return {
    server,
    routes,
    handlers,
    state,
    companies,
    dispatcher,
    reset,
    async listen(port = 4020, host = '127.0.0.1') {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      const address = server.address() as AddressInfo;
      origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
      return origin;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
