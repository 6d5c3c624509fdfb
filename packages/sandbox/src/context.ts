import type { Clock } from './clock.js';
import type { Company } from './companies.js';
import type { UploadedFile } from './body.js';
import type { Ids } from './ids.js';
import type { Limits } from './limits.js';
import type { Route } from './spec.js';
import type { Collections } from './state.js';

/** What a handler gets: the checked request, the caller's company, and the sandbox's state. */
export type Context = {
  route: Route;
  company: Company;
  body: Record<string, any>;
  files: Record<string, UploadedFile>;
  params: Record<string, string>;
  /** The stores, inside the request's transaction when it writes (server.ts). */
  state: Collections;
  clock: Clock;
  ids: Ids;
  limits: Limits;
  /** The sandbox's own origin, e.g. http://127.0.0.1:4020, for applicant URLs. */
  origin: string;
  /** Queues a callback to the company (a no-op log entry when it has no callback URL). */
  emit(event: Record<string, unknown> & { type: string; sessionId: string }): void;
  /** Every delivery attempt of the company's callbacks so far. */
  callbackAttempts(): unknown[];
};

export type Reply = { json: unknown } | { bytes: Uint8Array; contentType: string };
export type Handler = (context: Context) => Reply | Promise<Reply>;
export type Handlers = Record<string, Handler>;
