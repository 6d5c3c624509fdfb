// One request through a request ring in the test's own process, without a server: a tappable request and
// answer made by hand (request-ring.ts `tappable`), the request's body pushed as the HTTP parser pushes
// it, the answer written as a handler writes it, and the ring told that the answer is finished (what
// server.ts does from its 'finish' listener). For the request-ring-*.test.ts files that check what an
// entry shows, where a server on 127.0.0.1 would only add its start and a connection per request.
import { Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import { manualClock } from '../clock.js';
import type { Company } from '../companies.js';
import { createRequestRing, tappable, type Raw, type RequestRing, type Trace } from './request-ring.js';

export type Exchange = {
  /** The request's method (null: none, as a request made by hand has). */
  method?: string | null;
  /** The request's target as it came (its query is read for a session). */
  url?: string;
  /** The path server.ts read from the target (`undefined`: a target that is no path). */
  path?: string | undefined;
  trace?: Trace;
  /** The address the request came from. */
  ip?: string;
  /** The request's headers as they came, name and value in turn. */
  rawHeaders?: string[];
  /** The request's body, in the pieces the parser pushes. */
  body?: (string | Buffer)[];
  /** Writes the answer (default: an empty 200). */
  answer?: (res: ServerResponse) => void;
  /** Called between the answer's writing and its end being reported to the ring. */
  beforeFinish?: (res: ServerResponse) => void | Promise<void>;
};

/** A ring of `size` places over `companies` (name and key are all the ring reads of them). */
export function ringOf(companies: { name: string; companyKey: string }[], options: { size?: number; secrets?: string[]; onRecord?: (raw: Raw, companyKey: string | undefined) => void } = {}): RequestRing {
  return createRequestRing({
    companies: new Map(companies.map((company) => [company.companyKey, company as Company])),
    secrets: options.secrets ?? [],
    clock: manualClock(),
    size: options.size ?? 10,
    onRecord: options.onRecord,
  });
}

/** Runs one request through `ring`; returns its answer, finished. */
export async function exchange(ring: RequestRing, request: Exchange = {}): Promise<ServerResponse> {
  const socket = new Socket();
  if (request.ip !== undefined) Object.defineProperty(socket, 'remoteAddress', { value: request.ip });
  const req = new tappable.IncomingMessage(socket);
  req.method = (request.method === undefined ? 'POST' : request.method) as string;
  req.url = request.url ?? request.path ?? '/';
  req.rawHeaders = request.rawHeaders ?? [];
  const res = new tappable.ServerResponse(req);
  ring.watch(req, res, request.trace ?? {}, 'path' in request ? request.path : '/');
  for (const piece of request.body ?? []) req.push(piece);
  req.push(null);
  if (request.answer) request.answer(res);
  else res.end();
  await request.beforeFinish?.(res);
  ring.finished(res);
  return res;
}
