// The console's request log: the latest requests the sandbox answered, with their bodies (redacted when
// read), in a ring of fixed size. Fed from one hook in server.ts (`watch`), which copies at most
// `maxKeptBytes` of each body as it passes, without changing how the server reads or writes it.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Sandbox } from '@idv-toolkit/types';
import type { Clock } from '../clock.js';
import type { Company } from '../companies.js';
import { firstHeader } from '../body.js';
import { describeBody, maxKeptBytes, multipartFields } from './redact.js';

export type LoggedRequest = Sandbox.SandboxLoggedRequest;
/** A log entry and the company whose key the request carried (none: an unknown or missing key). */
export type RingEntry = { readonly entry: LoggedRequest; companyKey: string | undefined; sourceIp: string };
export type RequestFilter = { operation?: string; status?: number; sessionId?: string; text?: string; limit?: number };
/** What server.ts knows about a request when it ends. */
export type Trace = { operation?: string; company?: string };

export type RequestRing = {
  /** Watches one request of a `tappable` server; the entry is added when the answer is finished. */
  tap(req: IncomingMessage, res: ServerResponse, trace: Trace, path: string | undefined): void;
  /** As `tap`, for a caller that has a 'finish' listener of its own and calls `finished` from it (server.ts: its log line's). */
  watch(req: IncomingMessage, res: ServerResponse, trace: Trace, path: string | undefined): void;
  /** Adds the entry of a watched request whose answer is finished (nothing for one not watched). */
  finished(res: ServerResponse): void;
  /** The entries of a company (all entries for `undefined`: the admin's view), newest first. */
  list(companyKey: string | undefined, filter?: RequestFilter): RingEntry[];
  get(id: string): RingEntry | undefined;
  /** The addresses a company's requests came from (every address for `undefined`). */
  addresses(companyKey: string | undefined): Set<string>;
  /** Calls `listener` for every new entry; returns the unsubscribe. */
  subscribe(listener: (entry: RingEntry) => void): () => void;
};

/** Entries the ring keeps (our choice: 1,000, as the spec says). */
export const ringSize = 1000;

/**
 * The first `maxKeptBytes` of a body of a request in flight, copied into a buffer that its flight reuses
 * (flights are pooled): a request allocates nothing here once its buffers have grown to its bodies.
 */
class Kept {
  bytes: Buffer = Buffer.allocUnsafeSlow(1024);
  length = 0;
  size = 0;
  reset() {
    this.length = 0;
    this.size = 0;
  }
  private room(wanted: number) {
    if (this.length + wanted <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.min(maxKeptBytes, Math.max(this.bytes.length * 2, this.length + wanted)));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
  add(chunk: unknown, encoding?: unknown) {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const free = maxKeptBytes - this.length;
    // Counts everything but copies only what is kept: a 16 MiB upload costs a 16 KiB copy.
    if (typeof chunk === 'string') {
      const enc = (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding;
      // Stryker disable next-line BlockStatement: with no room left the general path below counts the string the same (nothing fits: it writes 0 bytes and adds its byteLength)
      if (free <= 0) {
        this.size += Buffer.byteLength(chunk, enc);
        return;
      }
      // A UTF-8 character takes at most 3 bytes per UTF-16 unit: a string that surely fits is counted by its copy.
      // Stryker disable next-line StringLiteral: `fits` false for UTF-8 takes the general path, which keeps and counts the same bytes (it only grows the buffer to the bound at once)
      const fits = enc === 'utf8' && chunk.length * 3 <= free;
      this.room(fits ? chunk.length * 3 : free);
      const written = this.bytes.write(chunk, this.length, Math.min(free, this.bytes.length - this.length), enc);
      this.length += written;
      this.size += fits ? written : Buffer.byteLength(chunk, enc);
      return;
    }
    const view = chunk as Uint8Array;
    this.size += view.byteLength;
    if (free <= 0) return;
    const part = Math.min(free, view.byteLength);
    this.room(part);
    this.bytes.set(part === view.byteLength ? view : view.subarray(0, part), this.length);
    this.length += part;
  }
}

/** Bytes of a body a place of the ring keeps in the shared arena: the usual body of the API is shorter. */
const inlineBytes = 256;

/**
 * The bodies the ring's places keep: the request's and the answer's of each place side by side in one
 * arena, in the ring's order, and a body longer than `inlineBytes` in a buffer of the place's own (kept
 * for the next long body there). A finished request's bodies are copied here from its flight's buffers:
 * each request writes into memory the ring last wrote 1,000 requests before, and a few lines of one
 * arena are fewer misses of the CPU's caches than the two objects, views and buffers of a place's own
 * that a request reached before (issue 14's bench: the ring of 100 places was 1.8 µs a request cheaper
 * over wrk than the ring of 1,000, with the same work).
 */
class Bodies {
  private readonly arena: Buffer;
  // Stryker disable next-line ArrayDeclaration: a place's own buffer is read only after `keep` wrote one there, so a value in place 0 beforehand is never read
  private readonly own: (Buffer | undefined)[] = [];
  constructor(places: number) {
    this.arena = Buffer.allocUnsafeSlow(2 * places * inlineBytes);
  }
  /** Keeps what `kept` holds as body `side` (0: the request's, 1: the answer's) of place `at`. */
  keep(at: number, side: 0 | 1, kept: Kept): void {
    const index = 2 * at + side;
    const { bytes, length } = kept;
    if (length <= inlineBytes) {
      // A loop: a short copy costs less than the view and native call of Buffer's copy.
      const arena = this.arena;
      for (let from = 0, to = index * inlineBytes; from < length; from++, to++) arena[to] = bytes[from]!;
      return;
    }
    let own = this.own[index];
    // Stryker disable next-line ArithmeticOperator: how much a place's own buffer grows beyond the body (memory only: `Math.max(length, ...)` keeps it long enough)
    if (own === undefined || own.length < length) this.own[index] = own = Buffer.allocUnsafeSlow(Math.min(maxKeptBytes, Math.max(length, 2 * (own?.length ?? 0))));
    bytes.copy(own, 0, 0, length);
  }
  /** Body `side` of place `at`, `length` bytes long, as the place holds it (until the place is reused). */
  view(at: number, side: 0 | 1, length: number): Buffer {
    const index = 2 * at + side;
    return length <= inlineBytes ? this.arena.subarray(index * inlineBytes, index * inlineBytes + length) : this.own[index]!.subarray(0, length);
  }
}

const apiOf = (path: string): LoggedRequest['api'] => (path.startsWith('/sandbox/') ? 'sandbox' : path.startsWith('/external-api/') ? 'legacy' : path.startsWith('/widget') ? 'applicant-page' : 'current');

function sessionIdOf(fields: Record<string, unknown>, query: URLSearchParams, answer: unknown): string | null {
  for (const value of [fields.sessionId, fields.session_token, fields.sessionToken, query.get('session_token'), (answer as { id?: unknown } | null)?.id]) {
    if (typeof value === 'string' && value.length > 0 && value.length <= 200) return value;
  }
  return null;
}

function fieldsOf(bytes: Buffer, contentType: string | undefined): Record<string, unknown> {
  try {
    if (contentType?.startsWith('multipart/')) return multipartFields(bytes, contentType);
    const parsed = JSON.parse(bytes.toString('utf8'));
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** What the ring keeps of a request until it is read: copies of the first bytes of both bodies. */
export type Raw = {
  time: string;
  method: string;
  path: string;
  operation: string | null;
  status: number;
  durationMs: number;
  sourceIp: string;
  query: string;
  requestType: string | undefined;
  requestBytes: Buffer;
  requestSize: number;
  responseType: string | undefined;
  responseBytes: Buffer;
  responseSize: number;
};

export function describe(id: string, raw: Raw, secrets: readonly string[]): LoggedRequest {
  const response = describeBody(raw.responseBytes, raw.responseSize, raw.responseType, secrets);
  let answer: unknown = null;
  if (response.text !== null && !response.truncated && raw.responseType?.includes('json')) {
    try {
      answer = JSON.parse(raw.responseBytes.toString('utf8'));
    } catch {
      answer = null;
    }
  }
  return {
    id,
    time: raw.time,
    method: raw.method,
    path: raw.path,
    api: apiOf(raw.path),
    operation: raw.operation,
    status: raw.status,
    durationMs: raw.durationMs,
    sourceIp: raw.sourceIp,
    sessionId: sessionIdOf(fieldsOf(raw.requestBytes, raw.requestType), new URLSearchParams(raw.query), answer),
    request: describeBody(raw.requestBytes, raw.requestSize, raw.requestType, secrets),
    response,
  };
}

/** A request in flight: pooled, like its buffers. */
type Flight = { started: number; time: number; trace: Trace; path: string | undefined; writtenType: string | undefined; incoming: Kept; outgoing: Kept };

/**
 * One place of the ring: plain fields and references the request had anyway (its strings), refilled in
 * place by each request that ends there. An entry is made of it (`item`) only when it is read.
 */
type Slot = {
  seq: number;
  time: number;
  method: string;
  path: string;
  operation: string | null;
  status: number;
  durationMs: number;
  sourceIp: string;
  url: string;
  companyName: string | undefined;
  requestType: string | undefined;
  responseType: string | undefined;
  /** The slot's place in the ring, where `Bodies` keeps its bodies. */
  place: number;
  requestLength: number;
  requestSize: number;
  responseLength: number;
  responseSize: number;
  item: RingEntry | undefined;
  companyKey: string | undefined;
  companyKnown: boolean;
};

const flightOf = Symbol('request-ring flight');

/** The content types seen, each kept once (a client may send any: at most `maxInterned` of them). */
const interned = new Map<string, string>();
const maxInterned = 100;
function intern(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const known = interned.get(text);
  if (known !== undefined) return known;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: whether a content type is kept in the intern table: `intern` returns the same text either way (memory only)
  if (interned.size < maxInterned && text.length <= 200) interned.set(text, text);
  return text;
}

/**
 * The request and answer of a server whose bodies the ring can copy: `createServer(tappable, ...)`. Their
 * methods copy a watched request's bodies on the way through and are the class's own, so that a request
 * costs no methods patched onto it and taken off again (which also gave every request and answer object a
 * shape of its own for Node's HTTP code to meet). A request that is not watched passes straight through.
 */
class TappedRequest extends IncomingMessage {
  // Declared, not initialised: set by `watch` on every request it watches (an initialiser was one more
  // property definition per request and per answer, issue 14's bench); unset reads as undefined.
  declare [flightOf]: Flight | undefined;
  // The HTTP parser hands the body to `push`: a copy taken there leaves the stream's flow as it was.
  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    this[flightOf]?.incoming.add(chunk, encoding);
    return super.push(chunk, encoding);
  }
}
class TappedResponse extends ServerResponse {
  declare [flightOf]: Flight | undefined;
}
// writeHead, write and end have overloads that a class body cannot restate: set on the prototype. Their
// arguments are passed on as `arguments` (a rest parameter would be an array per call).
const plain = ServerResponse.prototype;
const tapped = TappedResponse.prototype as ServerResponse;
// Headers given to writeHead are not readable by getHeader afterwards: note the content type there.
tapped.writeHead = function writeHead(this: TappedResponse) {
  const flight = this[flightOf];
  if (flight) {
    for (let at = 0; at < arguments.length; at++) {
      const arg: unknown = arguments[at];
      if (arg === null || typeof arg !== 'object') continue;
      if (Array.isArray(arg)) break;
      // The name the sandbox itself writes, read directly; any other spelling by a scan of the names.
      const usual = (arg as Record<string, unknown>)['content-type'];
      if (typeof usual === 'string') {
        flight.writtenType = usual;
        break;
      }
      for (const name in arg as Record<string, unknown>) {
        if (name.length !== 12 || name.toLowerCase() !== 'content-type') continue;
        const value = (arg as Record<string, unknown>)[name];
        if (typeof value === 'string') flight.writtenType = value;
        break;
      }
      break;
    }
  }
  return (plain.writeHead as (...args: unknown[]) => ServerResponse).apply(this, arguments as unknown as unknown[]);
} as ServerResponse['writeHead'];
tapped.write = function write(this: TappedResponse, chunk: unknown, encoding?: unknown) {
  this[flightOf]?.outgoing.add(chunk, encoding);
  return (plain.write as (...args: unknown[]) => boolean).apply(this, arguments as unknown as unknown[]);
} as ServerResponse['write'];
tapped.end = function end(this: TappedResponse, chunk?: unknown, encoding?: unknown) {
  this[flightOf]?.outgoing.add(chunk, encoding);
  return (plain.end as (...args: unknown[]) => ServerResponse).apply(this, arguments as unknown as unknown[]);
} as ServerResponse['end'];

/** `http.createServer`'s options for a server whose requests a ring may watch. */
export const tappable: { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } = { IncomingMessage: TappedRequest, ServerResponse: TappedResponse as unknown as typeof ServerResponse };

export function createRequestRing({
  companies,
  secrets,
  clock,
  size = ringSize,
  onRecord,
}: {
  companies: Map<string, Company>;
  secrets: readonly string[];
  clock: Clock;
  size?: number;
  /** Also hands each request, as kept, to a shared log (request-log-sql.ts). */
  onRecord?: (raw: Raw, companyKey: string | undefined) => void;
}): RequestRing {
  const slots: Slot[] = [];
  const bodies = new Bodies(size);
  const listeners = new Set<(entry: RingEntry) => void>();
  let next = 0;
  const pool: Flight[] = [];

  const keysByName = new Map<string, string[]>();
  for (const company of companies.values()) keysByName.set(company.name, [...(keysByName.get(company.name) ?? []), company.companyKey]);
  /** The key of the company server.ts named; the body tells apart companies that share a name. */
  function companyOf(name: string | undefined, requestBytes: Buffer, requestType: string | undefined): string | undefined {
    const keys = name === undefined ? undefined : keysByName.get(name);
    if (!keys || keys.length <= 1) return keys?.[0];
    const fields = fieldsOf(requestBytes, requestType);
    const key = fields.companyKey ?? fields.company_key;
    return typeof key === 'string' && keys.includes(key) ? key : keys[0];
  }
  const keyOf = (slot: Slot): string | undefined => {
    if (!slot.companyKnown) {
      slot.companyKey = companyOf(slot.companyName, bodies.view(slot.place, 0, slot.requestLength), slot.requestType);
      // Stryker disable next-line BooleanLiteral: the company found again on each read: the same bodies give the same key
      slot.companyKnown = true;
    }
    return slot.companyKey;
  };
  const idOf = (seq: number) => `req_${String(seq).padStart(6, '0')}`;
  /** What a slot holds, copied out of it: it stays right after the slot is reused. */
  const rawOf = (slot: Slot): Raw => ({
    time: new Date(slot.time).toISOString(),
    method: slot.method,
    path: slot.path,
    operation: slot.operation,
    status: slot.status,
    durationMs: slot.durationMs,
    sourceIp: slot.sourceIp,
    query: slot.url.split('?')[1] ?? '',
    requestType: slot.requestType,
    requestBytes: Buffer.from(bodies.view(slot.place, 0, slot.requestLength)),
    requestSize: slot.requestSize,
    responseType: slot.responseType,
    responseBytes: Buffer.from(bodies.view(slot.place, 1, slot.responseLength)),
    responseSize: slot.responseSize,
  });
  function itemOf(slot: Slot): RingEntry {
    if (slot.item) return slot.item;
    const id = idOf(slot.seq);
    const raw = rawOf(slot);
    let entry: LoggedRequest | undefined;
    // The entry (bodies decoded, pretty-printed and redacted) is made when first read, not on the request's path.
    return (slot.item = {
      companyKey: keyOf(slot),
      sourceIp: slot.sourceIp,
      get entry() {
        return (entry ??= describe(id, raw, secrets));
      },
    });
  }
  /** The slot of entry number `seq`, if the ring still holds it. */
  const slotOf = (seq: number): Slot | undefined => {
    const slot = slots[(seq - 1) % size];
    return slot && slot.seq === seq ? slot : undefined;
  };

  function finish(req: IncomingMessage, res: ServerResponse, flight: Flight) {
    const seq = ++next;
    const at = (seq - 1) % size;
    let slot = slots[at];
    if (!slot) {
      // Stryker disable next-line StringLiteral,BooleanLiteral: placeholders, every one written below before the slot is read
      slot = { seq, time: 0, method: '', path: '', operation: null, status: 0, durationMs: 0, sourceIp: '', url: '', companyName: undefined, requestType: undefined, responseType: undefined, place: at, requestLength: 0, requestSize: 0, responseLength: 0, responseSize: 0, item: undefined, companyKey: undefined, companyKnown: false };
      slots[at] = slot;
    }
    const responseType = res.getHeader('content-type');
    const ended = performance.now();
    lastFinish.res = res;
    lastFinish.at = ended;
    slot.seq = seq;
    slot.time = flight.time;
    slot.method = req.method ?? '-';
    slot.path = flight.path ?? '-';
    slot.operation = flight.trace.operation ?? null;
    slot.status = res.statusCode;
    slot.durationMs = Math.round((ended - flight.started) * 10) / 10;
    slot.sourceIp = req.socket.remoteAddress ?? '';
    // Strings the slot keeps for the next 1,000 requests: the path as the server read it, which is an old
    // string for a path it has seen before, and content types from a short list of those seen. A new
    // string kept here would be copied by each young-generation collection until it was promoted.
    // Stryker disable next-line StringLiteral: the URL is read only for its query, and a target without `?` has none either way
    const url = req.url ?? '';
    slot.url = url === slot.path ? slot.path : url;
    slot.companyName = flight.trace.company;
    slot.requestType = intern(firstHeader(req, 'content-type'));
    slot.responseType = typeof responseType === 'string' ? responseType : flight.writtenType;
    slot.item = undefined;
    slot.companyKey = undefined;
    slot.companyKnown = false;
    // The bodies are copied into the slot's place; the flight keeps its buffers for the next request.
    const { incoming, outgoing } = flight;
    bodies.keep(at, 0, incoming);
    bodies.keep(at, 1, outgoing);
    slot.requestLength = incoming.length;
    slot.requestSize = incoming.size;
    slot.responseLength = outgoing.length;
    slot.responseSize = outgoing.size;
    flight.trace = noTrace;
    flight.path = undefined;
    pool.push(flight);
    if (onRecord) onRecord(rawOf(slot), keyOf(slot));
    if (listeners.size > 0) {
      const item = itemOf(slot);
      for (const listener of listeners) listener(item);
    }
  }

  function finished(res: ServerResponse) {
    const flight = (res as TappedResponse)[flightOf];
    if (!flight) return;
    // A late write finds nothing to log into.
    const req = res.req as TappedRequest;
    (res as TappedResponse)[flightOf] = undefined;
    req[flightOf] = undefined;
    finish(req, res, flight);
  }
  // `on`, not `once` (a wrapper per request): 'finish' comes once, and `finished` ignores a request it no longer tracks.
  function onFinish(this: ServerResponse) {
    finished(this);
  }

  function watch(req: IncomingMessage, res: ServerResponse, trace: Trace, path: string | undefined) {
    if (!(req instanceof TappedRequest) || !(res instanceof TappedResponse)) throw new TypeError('The request ring watches the requests of a server made with createServer(tappable, ...)');
    const flight = pool.pop() ?? { started: 0, time: 0, trace, path, writtenType: undefined, incoming: new Kept(), outgoing: new Kept() };
    flight.started = performance.now();
    flight.time = clock.now();
    flight.trace = trace;
    flight.path = path;
    flight.writtenType = undefined;
    flight.incoming.reset();
    flight.outgoing.reset();
    req[flightOf] = flight;
    res[flightOf] = flight;
  }

  return {
    tap(req, res, trace, path) {
      watch(req, res, trace, path);
      res.on('finish', onFinish);
    },
    watch,
    finished,
    list(companyKey, filter = {}) {
      const out: RingEntry[] = [];
      const limit = filter.limit ?? 100;
      const text = filter.text?.toLowerCase();
      for (let seq = next; seq > 0 && out.length < limit; seq--) {
        const slot = slotOf(seq);
        if (!slot) break;
        if (companyKey !== undefined && keyOf(slot) !== companyKey) continue;
        const item = itemOf(slot);
        const { entry } = item;
        if (filter.operation && entry.operation !== filter.operation) continue;
        if (filter.status !== undefined && entry.status !== filter.status) continue;
        if (filter.sessionId && entry.sessionId !== filter.sessionId) continue;
        if (text && ![entry.path, entry.operation ?? '', entry.request.text ?? '', entry.response.text ?? ''].some((s) => s.toLowerCase().includes(text))) continue;
        out.push(item);
      }
      return out;
    },
    get(id) {
      const match = /^req_(\d+)$/.exec(id);
      const seq = match ? Number(match[1]) : NaN;
      if (!Number.isSafeInteger(seq) || seq < 1 || idOf(seq) !== id) return undefined;
      const slot = slotOf(seq);
      return slot && itemOf(slot);
    },
    addresses(companyKey) {
      const out = new Set<string>();
      for (const slot of slots) if (companyKey === undefined || keyOf(slot) === companyKey) out.add(slot.sourceIp);
      return out;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const noTrace: Trace = {};

/**
 * The clock readings of a watched request, for the server's log line: it times the same request from the
 * same moments, and each reading of `performance.now()` costs a fraction of a microsecond (issue 14's
 * bench: four a request, two of them the same as two others).
 */
// Stryker disable next-line ObjectLiteral: `res: undefined` matches no answer either way, and `at` is written with `res`
const lastFinish: { res: ServerResponse | undefined; at: number } = { res: undefined, at: 0 };
/** When `watch` began timing `res` (`performance.now()`), if the ring watches it. */
export const watchedSince = (res: ServerResponse): number | undefined => (res as TappedResponse)[flightOf]?.started;
/** When the ring's entry of `res` took its end (`performance.now()`), if that was the latest to finish; asked once. */
export function finishedAt(res: ServerResponse): number | undefined {
  if (lastFinish.res !== res) return undefined;
  lastFinish.res = undefined;
  return lastFinish.at;
}
