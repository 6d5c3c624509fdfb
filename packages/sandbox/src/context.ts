import type { CurrentOperations, LegacyOperations, Sandbox, SandboxOperations } from '@idv-toolkit/types';
import type { Clock } from './clock.js';
import type { Company } from './companies.js';
import type { UploadedFile } from './body.js';
import type { Ids } from './ids.js';
import type { Limits } from './limits.js';
import type { Route } from './spec.js';
import type { Collections } from './state.js';

/** Every operation of the three descriptions, by operationId, as generated from them. */
type Operations = CurrentOperations & LegacyOperations & SandboxOperations;
export type OperationId = keyof Operations & string;

type MediaOf<T> = T extends { content: infer Content } ? (Content extends { 'application/json': infer Body } ? Body : Content extends { 'multipart/form-data': infer Body } ? Body : never) : never;

/** The request body an operation documents (a form's fields for multipart; its files are in `files`). */
export type RequestBody<Id extends OperationId> = MediaOf<NonNullable<Operations[Id]['requestBody']>>;
/** The JSON body of an operation's 200 answer. */
export type ResponseBody<Id extends OperationId> = Operations[Id]['responses'] extends { 200: infer Ok } ? MediaOf<Ok> : never;

/** What a handler gets: the checked request, the caller's company, and the sandbox's state. */
type AnyContext = {
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
  callbackAttempts(): Sandbox.SandboxCallbackAttempt[] | Promise<Sandbox.SandboxCallbackAttempt[]>;
};

/**
 * `Context<'makeGroup'>` types `body` as that operation's request body (the server checked it against the
 * schema before the handler runs); plain `Context` is any operation's, for helpers shared by several.
 */
export type Context<Id extends OperationId | undefined = undefined> = Id extends OperationId ? Omit<AnyContext, 'body'> & { body: RequestBody<Id> } : AnyContext;

/** A handler's answer: the 200 body its operation documents (`json`), or a file. */
export type Reply<Id extends OperationId | undefined = undefined> = { json: Id extends OperationId ? ResponseBody<Id> : unknown } | FileReply;
export type FileReply = { bytes: Uint8Array; contentType: string };
/** `Handler<'addBlacklistRecord'>`: takes that operation's request body and must answer its 200 body. */
export type Handler<Id extends OperationId | undefined = undefined> = (context: Context<Id>) => Reply<Id> | Promise<Reply<Id>>;
/**
 * The handlers by operationId, each typed by its key: a handler whose operation's request or 200 body
 * changed in the spec so that it no longer fits fails the type check where it reads or answers.
 */
export type TypedHandlers = { [Id in OperationId]?: Handler<Id> };
/** The server's view: any operation's handler, its body already checked against the schema. */
export type Handlers = Record<string, Handler>;
