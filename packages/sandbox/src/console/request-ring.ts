// The console's request log: the latest requests the sandbox answered, with their bodies (redacted when
// read), in a ring of fixed size. Fed from one hook in server.ts (`tap`), which copies at most
// `maxKeptBytes` of each body as it passes, without changing how the server reads or writes it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Sandbox } from '@idv-toolkit/types';
import type { Clock } from '../clock.js';
import type { Company } from '../companies.js';
import { describeBody, maxKeptBytes, multipartFields } from './redact.js';

export type LoggedRequest = Sandbox.SandboxLoggedRequest;
/** A log entry and the company whose key the request carried (none: an unknown or missing key). */
export type RingEntry = { readonly entry: LoggedRequest; companyKey: string | undefined; sourceIp: string };
export type RequestFilter = { operation?: string; status?: number; sessionId?: string; text?: string; limit?: number };
/** What server.ts knows about a request when it ends. */
export type Trace = { operation?: string; company?: string };

export type RequestRing = {
  /** Watches one request; the entry is added when the answer is finished. */
  tap(req: IncomingMessage, res: ServerResponse, trace: Trace, path: string | undefined): void;
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

/** Copies the first `maxKeptBytes` of what passes, counting all of it. */
function keeper() {
  const chunks: Buffer[] = [];
  let kept = 0;
  let size = 0;
  return {
    add(chunk: unknown, encoding?: unknown) {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      // Counts everything but copies only what is kept: a 16 MiB upload costs a 16 KiB copy.
      if (typeof chunk === 'string') {
        const enc = (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding;
        size += Buffer.byteLength(chunk, enc);
        if (kept < maxKeptBytes) {
          const part = Buffer.from(chunk.slice(0, maxKeptBytes - kept), enc).subarray(0, maxKeptBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
        return;
      }
      const view = chunk as Uint8Array;
      size += view.byteLength;
      if (kept < maxKeptBytes) {
        const part = Buffer.from(view.subarray(0, maxKeptBytes - kept));
        chunks.push(part);
        kept += part.length;
      }
    },
    get bytes() {
      return Buffer.concat(chunks);
    },
    get size() {
      return size;
    },
  };
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
  const ring: RingEntry[] = [];
  const byId = new Map<string, RingEntry>();
  // The IDs of `ring`, in step: reading an entry's ID would describe it (parse and redact its bodies).
  const ids: string[] = [];
  const listeners = new Set<(entry: RingEntry) => void>();
  let next = 0;

  const keysByName = new Map<string, string[]>();
  for (const company of companies.values()) keysByName.set(company.name, [...(keysByName.get(company.name) ?? []), company.companyKey]);
  /** The key of the company server.ts named; the body tells apart companies that share a name. */
  function companyOf(name: string | undefined, raw: Raw): string | undefined {
    const keys = name === undefined ? undefined : keysByName.get(name);
    if (!keys || keys.length <= 1) return keys?.[0];
    const fields = fieldsOf(raw.requestBytes, raw.requestType);
    const key = fields.companyKey ?? fields.company_key;
    return typeof key === 'string' && keys.includes(key) ? key : keys[0];
  }

  function add(raw: Raw, companyName: string | undefined) {
    const id = `req_${String(++next).padStart(6, '0')}`;
    let entry: LoggedRequest | undefined;
    // The entry (bodies decoded, pretty-printed and redacted) is made when first read, not on the request's path.
    const item: RingEntry = {
      companyKey: companyOf(companyName, raw),
      sourceIp: raw.sourceIp,
      get entry() {
        return (entry ??= describe(id, raw, secrets));
      },
    };
    ring.push(item);
    byId.set(id, item);
    ids.push(id);
    if (ring.length > size) {
      ring.shift();
      byId.delete(ids.shift()!);
    }
    onRecord?.(raw, item.companyKey);
    for (const listener of listeners) listener(item);
  }

  return {
    tap(req, res, trace, path) {
      const started = performance.now();
      const time = new Date(clock.now()).toISOString();
      const incoming = keeper();
      const outgoing = keeper();
      // The HTTP parser hands the body to `push`: a copy taken there leaves the stream's flow as it was.
      const push = req.push;
      req.push = function (chunk: unknown, encoding?: BufferEncoding) {
        incoming.add(chunk, encoding);
        return push.call(this, chunk as Buffer, encoding);
      };
      // Headers given to writeHead are not readable by getHeader afterwards: note the content type there.
      let writtenType: string | undefined;
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
        const headers = args.find((arg) => arg !== null && typeof arg === 'object') as Record<string, unknown> | undefined;
        const type = headers && !Array.isArray(headers) ? Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] : undefined;
        if (typeof type === 'string') writtenType = type;
        return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
      } as ServerResponse['writeHead'];
      const write = res.write;
      const end = res.end;
      res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
        outgoing.add(chunk, rest[0]);
        return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      } as ServerResponse['write'];
      res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
        outgoing.add(chunk, rest[0]);
        return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
      } as ServerResponse['end'];
      res.once('finish', () => {
        const responseType = res.getHeader('content-type');
        const raw: Raw = {
          time,
          method: req.method ?? '-',
          path: path ?? '-',
          operation: trace.operation ?? null,
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          sourceIp: req.socket.remoteAddress ?? '',
          query: (req.url ?? '').split('?')[1] ?? '',
          requestType: req.headers['content-type'],
          requestBytes: incoming.bytes,
          requestSize: incoming.size,
          responseType: typeof responseType === 'string' ? responseType : writtenType,
          responseBytes: outgoing.bytes,
          responseSize: outgoing.size,
        };
        add(raw, trace.company);
      });
    },
    list(companyKey, filter = {}) {
      const out: RingEntry[] = [];
      const limit = filter.limit ?? 100;
      const text = filter.text?.toLowerCase();
      for (let i = ring.length - 1; i >= 0 && out.length < limit; i--) {
        const item = ring[i]!;
        const { entry } = item;
        if (companyKey !== undefined && item.companyKey !== companyKey) continue;
        if (filter.operation && entry.operation !== filter.operation) continue;
        if (filter.status !== undefined && entry.status !== filter.status) continue;
        if (filter.sessionId && entry.sessionId !== filter.sessionId) continue;
        if (text && ![entry.path, entry.operation ?? '', entry.request.text ?? '', entry.response.text ?? ''].some((s) => s.toLowerCase().includes(text))) continue;
        out.push(item);
      }
      return out;
    },
    get: (id) => byId.get(id),
    addresses(companyKey) {
      return new Set(ring.filter((item) => companyKey === undefined || item.companyKey === companyKey).map((item) => item.sourceIp));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
