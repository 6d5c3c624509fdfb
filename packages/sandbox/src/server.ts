// The sandbox's HTTP server: one origin for the current interface, the legacy interface, the applicant
// page and the control API. Each request goes through the same steps: read the target -> route -> rate
// limit -> read the body (size, depth, lengths) -> check it against the operation's schema -> find the
// company -> handler -> answer -> log one line.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as atTurnEnd } from 'node:timers';
import { BadInput, jsonBodyDeclared, jsonBodyRead, readBody, type UploadedFile, type UploadReading } from './body.js';
import { createDispatcher, defaultDeliveryPolicy, type CallbackEvent, type DeliveryPolicy, type Dispatcher, type OutboxDispatcher } from './callbacks.js';
import { systemClock, type Clock } from './clock.js';
import { documented } from './codes.js';
import { demoCompanies, type Company } from './companies.js';
import type { Context, Handler, Handlers, Reply } from './context.js';
import { ApiError, StoreFull } from './errors.js';
import { attachConsole } from './console/index.js';
import { finishedAt, tappable, watchedSince } from './console/request-ring.js';
import { createFormTokens } from './form-token.js';
import { allHandlers, readOnlyOperations, singleWriteOperations } from './handlers/index.js';
import { completeSession as packagedCompleteSession } from './handlers/control.js';
import { createIds, type Ids } from './ids.js';
import { textOf, type JsonText } from './json-text.js';
import { defaultLimits, withinLimits, type Limits } from './limits.js';
import { decodeAhead } from './media/data-uri.js';
import { loadPdfLib } from './media/pdf.js';
import { createRateLimiter } from './rate-limit.js';
import { formatLine, type LineWriter, type RequestLine } from './request-log.js';
import { isExpired, record, saveSession } from './sessions.js';
import { buildRoutes, routeFinder, type Route } from './spec.js';
import type { Database } from './sql/database.js';
import { migrate } from './sql/migrations.js';
import { mirroredState } from './sql/mirror.js';
import { sqlState } from './sql/store.js';
import { memoryState, type Collections, type Session, type State } from './state.js';
import { parseTarget } from './target.js';
import { widgetHeaders, widgetPage } from './widget.js';

export type SandboxOptions = {
  companies?: Company[];
  /**
   * Makes IDs reproducible: the same seed and requests give the same IDs. For tests only: one seeded ID
   * predicts the next. Without a seed, IDs are 128 random bits from `crypto` and never repeat.
   */
  seed?: number;
  clock?: Clock;
  /** Requests a minute per IP before 529 (default 600, as the service). */
  rateLimit?: number;
  /** How long an IP over the limit stays blocked (default 3600 s, as the service). */
  blockSeconds?: number;
  handlers?: Handlers;
  /** Retry policy of callback deliveries (tests shorten the delays). */
  deliveryPolicy?: DeliveryPolicy;
  /** The token that `POST /sandbox/reset` needs to forget everything; without one, only per-company resets. */
  adminToken?: string;
  /** Gets one line per request (method, path, operation, status, ms, company name; never a key). */
  log?: (line: string) => void;
  /** Overrides of the limits of limits.ts. */
  limits?: Partial<Limits>;
  /**
   * Where the records live: a PGlite or PostgreSQL database (sql/pglite.ts, sql/postgres.ts), migrated
   * before its first statement; the caller opened it and closes it. Without one, in memory.
   */
  database?: Database;
  /** PGlite only: false reads and writes PGlite directly instead of through the memory mirror (sql/mirror.ts), to compare them. */
  mirror?: boolean;
};

/** File fields longer than this are decoded ahead of their handler, in pieces (shorter ones take no time). */
// Stryker disable next-line all: where decoding ahead starts changes when, not what (docs/testing.md).
const decodeAheadAbove = 64 * 1024;

/** Codes for a request whose key names no company, most specific first (Parts 5 and 7). */
const keyCodes = ['invalid-company-key', 'company-missing', 'invalid-access', 'session-not-found', 'wrong-parameters', 'not-found'];
/** Codes for a request that is malformed, breaks its schema or a limit. */
const badInputCodes = ['wrong-parameters', 'session-not-found', 'not-found', 'access-denied'];

/** create-user names the rule a bad field breaks (Part 7); other operations say wrong-parameters. */
const fieldCodes: Record<string, Record<string, string>> = {
  createUser: { email: 'invalid-email-format', password: 'password-too-short', rights: 'invalid-rights' },
};

/** Writes a JSON answer: `body` serialised, or the text (or its bytes) its handler gave for it (json-text.ts). */
function json(res: ServerResponse, status: number, body: unknown, close = false, headers?: Record<string, string>, given?: JsonText) {
  writeJson(res, status, given ?? JSON.stringify(body), close, headers);
}

function writeJson(res: ServerResponse, status: number, text: JsonText, close: boolean, headers: Record<string, string> | undefined) {
  const head: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': typeof text === 'string' ? Buffer.byteLength(text) : text.byteLength };
  if (close) head.connection = 'close';
  if (headers) Object.assign(head, headers);
  res.writeHead(status, head);
  res.end(text);
}

function text(res: ServerResponse, status: number, body: string, close = false) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), ...(close ? { connection: 'close' } : {}) });
  res.end(body);
}

function firstField(problem: { instancePath: string; params: Record<string, unknown> }): string {
  const missing = problem.params.missingProperty;
  return typeof missing === 'string' ? missing : (problem.instancePath.split('/')[1] ?? '');
}

/** A request whose path has no parameters: one shared empty set, never written to. */
const noParams: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Whether a handler's answer is still to come (a promise, or any thenable a handler of one's own gives). */
const isThenable = (value: unknown): value is PromiseLike<Reply> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** A request without files (JSON, a query): one shared empty set, never written to. */
const noFiles: Record<string, UploadedFile> = Object.freeze({}) as Record<string, UploadedFile>;

/** What a request's log line knows so far. */
type Trace = { operation?: string; company?: string };

/**
 * A request's trace with what its log line needs when the answer is finished: one object per request,
 * kept on the response (no closure per request).
 */
type Logged = Trace & { started: number; path: string | undefined };
const loggedOf = Symbol('sandbox log line');
type LoggedResponse = ServerResponse & { [loggedOf]?: Logged };

/**
 * A request target that is a path alone (no query, escape, dot segment or empty segment) is its own
 * pathname, as `new URL` would read it: no URL object is built for it (issue 14's bench, every request).
 */
// Stryker disable next-line Regex: a narrower pattern sends more targets to parseTarget, same pathname (docs/testing.md).
const plainPath = /^(?:\/[\w~-][\w.~-]*)+\/?$|^\/$/;

/** The parts of the request target that the sandbox reads; a URL, or a plain path read as one. */
type Target = Pick<URL, 'pathname' | 'searchParams'>;
class PlainTarget {
  constructor(readonly pathname: string) {}
  /** A plain path has no query: an empty one, made only when asked for. */
  get searchParams(): URLSearchParams {
    return new URLSearchParams();
  }
}
/**
 * Plain targets seen before, each read once: the operations' paths come again and again. A hit costs no
 * pattern test and no object, and hands on a string that is already old (the request log keeps the path:
 * a young string kept there is copied by every young-generation collection until it is promoted). Paths
 * with IDs in them would fill it with one-offs: it stops taking new ones at `maxKnownTargets`.
 */
// Stryker disable all: a cache and a shortcut, equivalent for every answer (docs/testing.md): a target
// the cache or `plainPath` passes over is read by parseTarget into the same pathname.
const knownTargets = new Map<string, PlainTarget>();
const maxKnownTargets = 500;
const maxKnownTargetLength = 200;
function readTarget(target: string | undefined): Target | undefined {
  if (target === undefined) return undefined;
  const known = knownTargets.get(target);
  if (known) return known;
  if (!plainPath.test(target)) return parseTarget(target);
  const plain = new PlainTarget(target);
  if (knownTargets.size < maxKnownTargets && target.length <= maxKnownTargetLength) knownTargets.set(target, plain);
  return plain;
}
// Stryker restore all

/** What finishes a session from the applicant page (handlers/control.ts's completeSession). */
export type CompleteSession = typeof packagedCompleteSession;

/** The handler code that `replaceHandlers` swaps in; what is left out stays as it is. */
export type HandlerCode = {
  /** The operations that only read: they run outside their company's transaction. */
  readOnlyOperations?: Iterable<string>;
  /** The applicant page's finish (the control API's sandboxCompleteSession uses its own handler). */
  completeSession?: CompleteSession;
};

/** A sandbox server with its state, not yet listening. */
export type Sandbox = {
  server: Server;
  routes: Route[];
  /** The handlers answering now (replaceHandlers swaps them). */
  handlers: Handlers;
  state: State;
  /** The companies by company key. */
  companies: Map<string, Company>;
  /** In memory, or the database's outbox when the sandbox runs on one (its operations answer by promises). */
  dispatcher: Dispatcher | OutboxDispatcher;
  limits: Limits;
  /** Forgets everything, as `POST /sandbox/reset` with the admin token. */
  reset(): Promise<void>;
  /** Runs an operation in-process, as if its fields had come over HTTP: limits, schema, key, handler. */
  invoke(operationId: string, fields: Record<string, unknown>, params?: Record<string, string>): Promise<{ status: number; json?: unknown; bytes?: Uint8Array }>;
  /** Reads the routes and request checks again from the bundles (after `npm run dev` rewrote them); data, callbacks and connections stay. */
  reloadRoutes(): void;
  /**
   * Answers from now on with `handlers` (new code of the handlers, `npm run dev`): the data, callbacks,
   * rate-limit counts, connections and port stay; a request already running ends with the code it began with.
   */
  replaceHandlers(handlers: Handlers, code?: HandlerCode): void;
  /** Starts listening; resolves to the origin, e.g. http://127.0.0.1:4020. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
};

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const { seed, adminToken } = options;
  const clock = options.clock ?? systemClock;
  const limits: Limits = { ...defaultLimits, ...options.limits };
  // Copies: the console's operations find their sandbox's request log, limiter and dispatcher through the
  // company object (console/services.ts), so two sandboxes given the same companies must not share them.
  const companies = new Map((options.companies ?? demoCompanies()).map((c) => [c.companyKey, { ...c }]));
  // `let`: reloadRoutes() swaps them for the routes of rewritten bundles (npm run dev).
  let routes = buildRoutes();
  let findRoute = routeFinder(routes);
  // `let`: replaceHandlers() swaps them for new code (npm run dev).
  let handlers = options.handlers ?? allHandlers;
  let readOnly: ReadonlySet<string> = readOnlyOperations;
  let completeSession: CompleteSession = packagedCompleteSession;
  // PGlite's directory belongs to this process alone, so memory mirrors it and answers reads (sql/mirror.ts).
  const state: State = !options.database ? memoryState(limits) : options.database.kind === 'pglite' && options.mirror !== false ? mirroredState(options.database, limits) : sqlState(options.database, limits);
  // The shared limiter and the outbox read their tables before any store access may have migrated them.
  let migrated: Promise<unknown> | undefined;
  const ready = async () => {
    if (options.database) await (migrated ??= migrate(options.database));
  };
  /** The outbox whose reads and writes wait for the schema (a caller may pause or list before any request). */
  const migratedFirst = (d: OutboxDispatcher): OutboxDispatcher => ({
    ...d,
    enqueue: async (company, event, tx) => (await ready(), d.enqueue(company, event, tx)),
    attempts: async (key) => (await ready(), d.attempts(key)),
    idle: async () => (await ready(), d.idle()),
    clear: async (key) => (await ready(), d.clear(key)),
    setPaused: async (key, paused) => (await ready(), d.setPaused(key, paused)),
    isPaused: async (key) => (await ready(), d.isPaused(key)),
  });
  const limiterOptions = { perMinute: options.rateLimit ?? 600, blockMs: (options.blockSeconds ?? 3600) * 1000, clock, maxTracked: limits.maxTrackedAddresses };
  // Counted in PostgreSQL, so that every instance on it counts one address together; PGlite is one
  // process, where memory is exact and cheaper.
  const limiter = options.database?.kind === 'postgres' ? createRateLimiter({ ...limiterOptions, database: options.database }) : createRateLimiter(limiterOptions);
  let ids: Ids = createIds(seed);
  // Jitter and event IDs of callbacks from their own sequence, so that retries do not shift the IDs.
  let eventIds: Ids = createIds(seed === undefined ? undefined : seed ^ 0x5eed);
  const dispatcherOptions = { clock, random: () => eventIds.random(), nextId: () => eventIds.next('evt'), policy: options.deliveryPolicy ?? defaultDeliveryPolicy, limits };
  // On a database the callbacks wait in its outbox (sql/outbox.ts): durable across restarts, shared by instances.
  const outbox = options.database ? migratedFirst(createDispatcher({ ...dispatcherOptions, outbox: { database: options.database } })) : undefined;
  const dispatcher: Dispatcher | OutboxDispatcher = outbox ?? createDispatcher(dispatcherOptions);
  const formTokens = createFormTokens(seed);
  const secrets = [...companies.keys(), ...[...companies.values()].map((c) => c.callbackApiKey ?? ''), adminToken ?? ''].filter(Boolean);
  const log = options.log;
  // A writer from batchedLines takes a line's parts and writes them without making the line's string.
  const logParts = typeof (log as Partial<LineWriter> | undefined)?.request === 'function' ? (log as LineWriter).request : undefined;
  const consoleApp = attachConsole({ companies, adminToken, clock, limiter, dispatcher, secrets, invoke: (...args) => invoke(...args), database: options.database });
  // Made from the routes, and made again with them by reloadRoutes() (a stale set would match no route of
  // the new bundles, and a path parameter would reach its handler empty).
  const completeRouteOf = (all: Route[]) => all.find((r) => r.operationId === 'sandboxCompleteSession')!;
  /** Routes whose path has parameters: only theirs is matched again for its values. */
  const withParametersOf = (all: Route[]) => new Set(all.filter((route) => route.path.includes('{')));
  let completeRoute = completeRouteOf(routes);
  let withParameters = withParametersOf(routes);
  let origin = 'http://127.0.0.1';

  /**
   * Where a request's callbacks wait until its transaction has committed: the outbox writes them then,
   * before the answer, so a 200 means they are durable, and a refused request (rolled back) sends none.
   * The store's transaction does not expose its SQL connection, so they are not written inside it.
   * In memory they are queued at once, as before.
   */
  type Emitted = { company: Company; event: CallbackEvent }[];
  async function flush(emitted: Emitted) {
    if (!outbox) return;
    for (const { company, event } of emitted.splice(0)) await outbox.enqueue(company, event);
  }

  /**
   * A company's callback functions for handlers, made once per company: in memory a callback is queued at
   * once, so they depend on the company alone (a pair of closures per request was garbage on every request).
   */
  const hooks = new Map<Company, Pick<Context, 'emit' | 'callbackAttempts'>>();
  const hooksOf = (company: Company) => {
    let made = hooks.get(company);
    if (!made) hooks.set(company, (made = { emit: (event) => void dispatcher.enqueue(company, event), callbackAttempts: () => dispatcher.attempts(company.companyKey) }));
    return made;
  };

  /** A handler's context. `emitted`: where its callbacks wait for the commit, on a database (see `flush`). */
  const contextFor = (route: Route, company: Company, body: Record<string, any>, files: Context['files'], params: Record<string, string>, scoped: Ids = ids, stores: Collections = state, emitted?: Emitted): Context => {
    const { emit, callbackAttempts } = hooksOf(company);
    return {
      route,
      company,
      body,
      files,
      params,
      state: stores,
      clock,
      ids: scoped,
      limits,
      origin,
      emit: outbox ? (event) => void emitted!.push({ company, event }) : emit,
      callbackAttempts,
    };
  };

  async function reset() {
    await state.clear();
    ids = createIds(seed);
    eventIds = createIds(seed === undefined ? undefined : seed ^ 0x5eed);
    await limiter.reset();
    await dispatcher.clear();
  }

  async function resetCompany(company: Company) {
    await state.clear(company.companyKey);
    await dispatcher.clear(company.companyKey);
  }

  /** An answer before it is written: JSON, or a file's bytes. */
  type Outcome = { status: number; json: unknown; text?: JsonText; reply?: { json: unknown }; close?: boolean; headers?: Record<string, string> } | { status: 200; bytes: Uint8Array; contentType: string };
  // Part 7: a group operation's wrong-parameters body carries errorSourceGroup; where no field is to blame
  // (an unreadable body) it names the body (our choice).
  const sourceGroup = (route: Route, code: string) => (code === 'wrong-parameters' && /group/i.test(route.operationId) ? { errorSourceGroup: 'body' } : {});
  const refusal = (route: Route, code: string, extra: Record<string, unknown> = {}, close = false): Outcome => ({ status: 400, json: { [route.errorKey]: code, ...sourceGroup(route, code), ...extra }, close });
  const badInput = (route: Route, close = false) => refusal(route, documented({ route }, ...badInputCodes), {}, close);

  /**
   * Checks a read request against the limits, its schema and the company key, and runs its handler. Not an
   * async function: the usual request hands on its handler's promise as it is, and only the resets and
   * uploads, which wait for something first, go through one (an async function and its await per request
   * fewer, issue 14's bench).
   */
  function answer(route: Route, fields: Record<string, any>, files: Context['files'], params: Record<string, string>, trace: Trace): Outcome | Promise<Outcome> {
    if (!withinLimits(fields, limits, route.bigFields)) return badInput(route);
    if (route.operationId === 'createUser' && 'password' in fields && typeof fields.password !== 'string') {
      return { status: 400, json: { internalError: `Illegal arguments: password must be a string, got ${fields.password === null ? 'null' : typeof fields.password}` } };
    }
    // A JSON text field is decoded into a copy: `fields` stays as it came, for the schema check below.
    const body = route.jsonTextFields.length ? { ...fields } : fields;
    for (const field of route.jsonTextFields) {
      if (typeof fields[field.name] !== 'string') continue;
      try {
        body[field.name] = JSON.parse(fields[field.name]);
      } catch {
        return badInput(route);
      }
      if (!withinLimits(body[field.name], limits, undefined, 1) || !field.validate(body[field.name])) return badInput(route);
    }
    // A form's files are checked as present (the schema says `format: binary`); a JSON body has none.
    let checked = fields;
    for (const name of Object.keys(files)) checked = { ...checked, [name]: '(file)' };
    if (!route.validate(checked)) {
      const problem = route.validate.errors![0]!;
      const field = firstField(problem);
      const code = fieldCodes[route.operationId]?.[field] ?? documented({ route }, ...badInputCodes);
      return refusal(route, code, route.codes.includes('wrong-parameters') && /group/i.test(route.operationId) ? { errorSourceGroup: field } : {});
    }
    // An operation that documents invalid-admin-token takes the admin token in place of a company key
    // (openapi/sandbox): reset forgets everything, the others run as the operator (console/services.ts).
    if (fields.adminToken !== undefined && route.codes.includes('invalid-admin-token')) {
      if (adminToken === undefined || fields.adminToken !== adminToken) return refusal(route, 'invalid-admin-token');
      trace.company = '(admin)';
      if (route.operationId !== 'sandboxReset') return runHandler(route, handlers[route.operationId], consoleApp.operator, body, files, params);
      return reset().then(() => ({ status: 200, json: { result: true } }));
    }
    if (route.operationId === 'sandboxReset' && fields.companyKey === undefined) return refusal(route, 'wrong-parameters');
    const company = companies.get(fields.companyKey ?? fields.company_key);
    if (!company) return refusal(route, documented({ route }, ...keyCodes));
    trace.company = company.name;
    if (route.operationId === 'sandboxReset') return resetCompany(company).then(() => ({ status: 200, json: { result: true } }));
    const handler = handlers[route.operationId];
    // Stryker disable next-line ConditionalExpression: skipping this branch changes when the file is decoded, not what the handler gets (docs/testing.md).
    if (route.uploads && handler) return runUpload(route, handler, company, body, files, params);
    return runHandler(route, handler, company, body, files, params);
  }

  /** An upload's handler, after its large files are decoded here, a piece per turn, rather than in one go in the handler (media/data-uri.ts). */
  async function runUpload(route: Route, handler: Handler, company: Company, body: Record<string, any>, files: Context['files'], params: Record<string, string>): Promise<Outcome> {
    const forget: (() => void)[] = [];
    // Stryker disable next-line BlockStatement: without decoding ahead and its turn, the handler decodes the same bytes itself (docs/testing.md).
    try {
      // Stryker disable next-line all: decoding ahead or in the handler gives the same bytes (docs/testing.md).
      for (const name of route.bigFields) if (typeof body[name] === 'string' && body[name].length > decodeAheadAbove) forget.push(await decodeAhead(body[name]));
      // Checking a large upload took a turn of its own: let other requests in before the handler's turn.
      await new Promise<void>((resolve) => setImmediate(resolve));
      return await runHandler(route, handler, company, body, files, params);
    } finally {
      for (const done of forget) done();
    }
  }

  /**
   * Runs the operation's handler (or answers its example when it has none), giving back refused IDs. Not
   * an async function: a handler that answers without a promise (add-blacklist-record on memory) is
   * answered at once, with no promise, async function or turn of its own (issue 14's bench); one that
   * answers by a promise is awaited in `settled`.
   */
  function runHandler(route: Route, handler: Handler | undefined, company: Company, body: Record<string, any>, files: Context['files'], params: Record<string, string>): Outcome | Promise<Outcome> {
    // An operation added to the spec before its handler: its documented 200 example, marked as not emulated
    // (our choice), so that callers get a body the spec describes; 501 only if it documents no example.
    if (!handler) {
      const headers = { 'x-sandbox-emulated': 'false' };
      return route.example !== undefined ? { status: 200, json: route.example, headers } : { status: 501, json: { error: `The sandbox does not emulate ${route.operationId} yet` }, headers };
    }
    // A refused request gives back the IDs it drew (a seeded sandbox's sequence stays where it was).
    const scope = ids.scope();
    const emitted: Emitted | undefined = outbox ? [] : undefined;
    let reply: Reply | PromiseLike<Reply>;
    try {
      // A request that writes runs in its company's transaction (state.ts), so its checks and writes are atomic;
      // one whose one write is atomic by itself (handlers/index.ts singleWriteOperations) needs no more.
      if (readOnly.has(route.operationId) || singleWriteOperations.has(route.operationId)) reply = handler(contextFor(route, company, body, files, params, scope.ids, state, emitted));
      else reply = state.transaction(company.companyKey, (stores: Collections) => Promise.resolve(handler(contextFor(route, company, body, files, params, scope.ids, stores, emitted))));
    } catch (error) {
      return refused(route, scope, error);
    }
    if (isThenable(reply) || emitted?.length) return settled(route, scope, reply, emitted);
    return outcomeOf(reply);
  }

  /** A handler's answer that is still to come, or whose callbacks wait for their commit (`flush`). */
  async function settled(route: Route, scope: { undo(): void }, pending: Reply | PromiseLike<Reply>, emitted: Emitted | undefined): Promise<Outcome> {
    let reply: Reply;
    try {
      reply = await pending;
      if (emitted?.length) await flush(emitted);
    } catch (error) {
      return refused(route, scope, error);
    }
    return outcomeOf(reply);
  }

  /** A handler's refusal as the operation answers it (its drawn IDs given back); anything else is thrown on. */
  function refused(route: Route, scope: { undo(): void }, error: unknown): Outcome {
    if (error instanceof ApiError) {
      scope.undo();
      return refusal(route, error.code, error.extra);
    }
    if (error instanceof StoreFull) {
      scope.undo();
      return badInput(route);
    }
    throw error;
  }

  function outcomeOf(reply: Reply): Outcome {
    if (!('json' in reply)) return { status: 200, bytes: reply.bytes, contentType: reply.contentType };
    // A reply with its text keeps its value unread (json-text.ts): only `invoke` reads it.
    const text = textOf(reply);
    return text === undefined ? { status: 200, json: reply.json } : { status: 200, json: undefined, text, reply };
  }

  /**
   * An upload's files are set aside as its body arrives (body.ts): strings longer than `bigString` bytes,
   * which is over the text limit even for a string of escapes (6 bytes a character); the other fields
   * may take no more than a body without files.
   */
  const uploadReading = (route: Route): UploadReading => ({ bigFields: route.bigFields, bigString: Math.max(64 * 1024, 6 * limits.maxTextLength), maxSkeletonBytes: limits.maxBodyBytes });

  /** Runs an operation in-process, as if its JSON or form fields had come over HTTP (tests drive load with it). */
  async function invoke(operationId: string, fields: Record<string, unknown>, params: Record<string, string> = {}): Promise<{ status: number; json?: unknown; bytes?: Uint8Array }> {
    const route = routes.find((r) => r.operationId === operationId);
    if (!route) throw new TypeError(`No operation ${operationId}`);
    await ready();
    const outcome = await answer(route, fields, {}, params, {});
    return 'json' in outcome ? { status: outcome.status, json: outcome.reply ? outcome.reply.json : outcome.json } : { status: 200, bytes: outcome.bytes };
  }

  /**
   * The applicant page. Codes (our choice; the page is in no spec): 200 the page, 404 no such session,
   * 400 a finishing POST without the page's form token or with an unknown result, 405 another method,
   * 529 over the rate limit (as the API).
   */
  async function handleWidget(req: IncomingMessage, res: ServerResponse, url: Target, trace: Trace) {
    trace.operation = 'applicantPage';
    const page = (status: number, html: string) => {
      res.writeHead(status, { ...widgetHeaders, 'content-length': Buffer.byteLength(html) });
      res.end(html);
    };
    if (req.method !== 'GET' && req.method !== 'POST') {
      req.resume();
      res.writeHead(405, { allow: 'GET, POST', 'content-type': 'text/plain' });
      return res.end('Method not allowed');
    }
    const token = url.searchParams.get('session_token') ?? '';
    const owner = token.length > 200 ? undefined : await state.sessions.ownerOf(token);
    const company = owner === undefined ? undefined : companies.get(owner);
    let session = company ? await state.sessions.get(company.companyKey, token) : undefined;
    if (company) trace.company = company.name;
    if (!session || !company) {
      req.resume();
      return page(404, widgetPage(undefined, token, false));
    }
    const emitted: Emitted = [];
    const context = contextFor(completeRoute, company, {}, {}, {}, ids, state, emitted);
    // Reads the session again inside the company's transaction, changes it there, and shows what was stored.
    const change = (work: (tx: Context, current: Session) => Promise<void>) =>
      state.transaction(company.companyKey, async (stores) => {
        const tx = { ...context, state: stores };
        const current = (await stores.sessions.get(company.companyKey, token)) ?? session!;
        await work(tx, current);
        session = current;
      }).then(
        () => flush(emitted),
        (error) => {
          // A refused change is rolled back: what it emitted is not sent.
          emitted.length = 0;
          throw error;
        },
      );
    let message: string | undefined;
    if (req.method === 'POST') {
      let fields: Record<string, unknown>;
      try {
        ({ fields } = await readBody(req, 'multipart', limits.maxBodyBytes));
      } catch (error) {
        if (!(error instanceof BadInput)) throw error;
        return page(400, widgetPage(session, token, isExpired(context, session), 'The form could not be read: reload the page.', formTokens.tokenFor(session.id)));
      }
      const result = fields.result;
      if (!formTokens.check(session.id, fields.form_token) || (result !== 'approved' && result !== 'rejected' && result !== 'manual-check')) {
        return page(400, widgetPage(session, token, isExpired(context, session), 'This form is out of date: reload the page.', formTokens.tokenFor(session.id)));
      }
      try {
        await change((tx, current) => completeSession(tx, current, result));
        message = 'Thank you: the session is finished.';
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        message = 'This session can no longer be finished.';
      }
    } else {
      await change(async (tx, current) => {
        record(tx, current, 'PAGE_LOADED');
        await saveSession(tx, current);
      });
    }
    page(200, widgetPage(session, token, isExpired(context, session), message, formTokens.tokenFor(session.id)));
  }

  async function handle(req: IncomingMessage, res: ServerResponse, trace: Trace, url: Target | undefined) {
    if (!url) {
      req.resume();
      return text(res, 400, 'Bad request target', true);
    }
    const path = url.pathname;
    if (options.database) await ready();
    // `return await` where a promise is returned: returning it as it is costs the promise of this async
    // function two more turns and a job to take on its outcome.
    if (path === '/console' || path.startsWith('/console/')) return await consoleApp.handle(req, res, url instanceof URL ? url : parseTarget(req.url)!, origin);
    const widget = path === '/widget/' || path === '/widget';
    const route = widget ? undefined : findRoute(req.method, path);
    if (!widget && !route) {
      req.resume();
      return text(res, 404, 'Not found');
    }
    if (route) trace.operation = route.operationId;
    // The control API is the tester's own tool, and a blocked tester must still be able to reset: not limited.
    // The memory limiter answers at once: no extra turn per request for it.
    const allowed = route?.api === 'sandbox' || limiter.allow(req.socket.remoteAddress ?? '');
    if (!(typeof allowed === 'boolean' ? allowed : await allowed)) {
      req.resume();
      return text(res, 529, 'Too many requests');
    }
    if (widget) return await handleWidget(req, res, url, trace);
    // An API request, read, answered and written here rather than in a function of its own: one async
    // function, its promise and a turn fewer per request (issue 14's bench).
    const api = route!;
    let outcome: Outcome;
    // The event loop's turn the request came in (an answer made in a later one is written at once: answerAtTurnEnd).
    const arrivedIn = currentTurn();
    try {
      const maxBytes = api.uploads ? limits.maxUploadBodyBytes : limits.maxBodyBytes;
      let fields: Record<string, unknown>;
      let files: Record<string, UploadedFile> = noFiles;
      if (api.body === 'json' && !api.uploads) {
        // readBody's JSON path written out (every request of the API but uploads and forms comes here): its
        // turn taken here, and the fields at hand when the body came whole, with no async function of its own.
        const declared = jsonBodyDeclared(req, maxBytes);
        await undefined;
        const read = jsonBodyRead(req, maxBytes, declared);
        fields = read instanceof Promise ? await read : read;
      } else if (api.body === 'query') fields = Object.fromEntries(url.searchParams);
      else ({ fields, files } = await readBody(req, api.body, maxBytes, api.uploads ? uploadReading(api) : undefined));
      // An answer already made (a handler that answered without a promise) is written in this turn.
      const answered = answer(api, fields, files, withParameters.has(api) ? (api.match.exec(url.pathname)?.groups ?? {}) : noParams, trace);
      outcome = answered instanceof Promise ? await answered : answered;
    } catch (error) {
      if (!(error instanceof BadInput)) throw error;
      outcome = badInput(api, error.unread);
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral,EqualityOperator: which answers wait for the end of the turn changes when they are written (a turn at most), not what they say (answerAtTurnEnd).
    if ('json' in outcome && turn !== arrivedIn) return json(res, outcome.status, outcome.json, outcome.close, outcome.headers, outcome.text);
    if ('json' in outcome) return answerAtTurnEnd(res, outcome.status, outcome.text ?? JSON.stringify(outcome.json), outcome.close === true, outcome.headers);
    res.writeHead(200, { 'content-type': outcome.contentType, 'content-length': outcome.bytes.length });
    res.end(outcome.bytes);
  }

  /**
   * What start-up leaves for later (spec.ts, media/pdf.ts): each route's validators, then pdf-lib, one piece
   * per idle turn once the server listens, so that the first request of an operation finds them ready and
   * a request that arrives meanwhile waits for one piece at most.
   */
  // Stryker disable all: start-up work done ahead, equivalent for every answer (a validator compiles on its
  // first use, pdf-lib loads on its first PDF); only the first request's time tells (docs/testing.md).
  function warmUp() {
    const pieces = [...routes.flatMap((route) => [route.validate, ...route.jsonTextFields.map((field) => field.validate)].map((validate) => () => validate.compiled())), () => loadPdfLib()];
    const next = () => {
      if (!server.listening) return;
      pieces.shift()?.();
      if (pieces.length) setImmediate(next).unref();
    };
    setImmediate(next).unref();
  }
  // Stryker restore all

  /**
   * API answers wait for the end of the event loop's turn (its check phase) and are written there together,
   * serialised already: the requests that came in one turn are answered in one burst. A client waiting on
   * several connections is then woken once for the burst, where an answer written as soon as it was made
   * woke it once an answer, each a wake-up of another process that the kernel charges to the writer (issue
   * 14's bench: `perf` showed the wake-ups of wrk, in sock_def_readable, as a sixth of add's CPU). An answer
   * waits at most for the other requests of its turn. Only answers made in their request's own turn wait
   * (promises settled within it included: the memory store's pages): one made in a later turn, after a
   * database's answer (PGlite, PostgreSQL), is written at once, since holding those back cost PGlite's add a
   * quarter of its rate (bench/stores.bench.mjs: 146 against 189 µs a request).
   */
  type Waiting = { res: ServerResponse; status: number; text: JsonText; close: boolean; headers: Record<string, string> | undefined };
  const waiting: (Waiting | undefined)[] = [];
  /** The event loop's turns that had requests, counted at each one's end (`currentTurn`). */
  // Stryker disable all: the count only tells an answer made in its request's turn from one made later, which
  // decides when it is written (a turn at most), not what it says.
  let turn = 0;
  let turnCounted = false;
  const countTurn = () => {
    turn++;
    turnCounted = false;
  };
  function currentTurn() {
    if (!turnCounted) {
      turnCounted = true;
      atTurnEnd(countTurn);
    }
    return turn;
  }
  // Stryker restore all
  function answerAtTurnEnd(res: ServerResponse, status: number, text: JsonText, close: boolean, headers: Record<string, string> | undefined) {
    if (waiting.length === 0) atTurnEnd(writeWaiting);
    waiting.push({ res, status, text, close, headers });
  }
  function writeWaiting() {
    // An answer's 'finish' runs no request: nothing is added while the burst is written.
    for (let at = 0; at < waiting.length; at++) {
      const { res, status, text, close, headers } = waiting[at]!;
      waiting[at] = undefined;
      try {
        writeJson(res, status, text, close, headers);
      } catch (error) {
        failed(res, error);
      }
    }
    waiting.length = 0;
  }

  /** A bug of the sandbox, not of the request: said plainly, and the request answered (never left hanging). */
  function failed(res: ServerResponse, error: unknown) {
    console.error(error);
    if (!res.headersSent) json(res, 500, { error: 'sandbox internal error' });
    else res.end();
  }

  /**
   * A request's answer is finished: its entry in the console's request log, then its line. One listener
   * for both, the same function for every request (its state on the response): a listener per request
   * and per purpose cost Node an array of listeners to copy at each 'finish'.
   */
  function finished(this: LoggedResponse) {
    consoleApp.finished(this);
    const logged = this[loggedOf];
    if (!logged) return;
    this[loggedOf] = undefined;
    // The console's entry of the request timed its end just now (one clock reading for both), if it has one.
    const ended = finishedAt(this) ?? performance.now();
    const line: RequestLine = { method: this.req.method ?? '-', path: logged.path ?? '-', operation: logged.operation, status: this.statusCode, ms: ended - logged.started, company: logged.company };
    if (logParts) logParts(line, secrets);
    else log!(formatLine(line, secrets));
  }

  // `tappable`: the console's request log copies the bodies through the request and answer classes' own methods.
  const server = createServer(tappable, (req, res) => {
    const url = readTarget(req.url);
    const path = url?.pathname;
    const trace: Logged = { operation: undefined, company: undefined, started: 0, path };
    consoleApp.watch(req, res, trace, path);
    if (log) {
      // Timed from when the console's request log began to watch it (one clock reading for both), or now.
      trace.started = watchedSince(res) ?? performance.now();
      (res as LoggedResponse)[loggedOf] = trace;
    }
    res.on('finish', finished);
    handle(req, res, trace, url).catch((error) => failed(res, error));
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  return {
    server,
    get routes() {
      return routes;
    },
    reloadRoutes() {
      routes = buildRoutes();
      findRoute = routeFinder(routes);
      completeRoute = completeRouteOf(routes);
      withParameters = withParametersOf(routes);
      warmUp();
    },
    get handlers() {
      return handlers;
    },
    replaceHandlers(next, code = {}) {
      handlers = next;
      if (code.readOnlyOperations) readOnly = new Set(code.readOnlyOperations);
      if (code.completeSession) completeSession = code.completeSession;
    },
    state,
    companies,
    dispatcher,
    limits,
    reset,
    invoke,
    async listen(port = 4020, host = '127.0.0.1') {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        // Node's default queue (511) overflows under a burst of connects: the kernel then resets some with
        // SYN cookies it no longer accepts (sql/burst.test.ts). Linux caps this at net.core.somaxconn.
        server.listen({ port, host, backlog: 4096 }, () => resolve());
      });
      const address = server.address() as AddressInfo;
      origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
      warmUp();
      return origin;
    },
    // The outbox stops claiming before the caller closes the database.
    close: async () => {
      const closed = dispatcher.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await closed;
    },
  };
}
