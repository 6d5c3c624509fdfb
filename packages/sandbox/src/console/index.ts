// Wires the console into a sandbox: its request log (fed by `watch`), the services its control operations
// use, and the /console/ pages. server.ts calls `attachConsole` once, and `watch`, `finished` and `handle`
// per request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock.js';
import type { Company } from '../companies.js';
import { createConsole, type ConsoleApp } from './app.js';
import type { Database } from '../sql/database.js';
import { memoryLog, type RequestLog } from './request-log.js';
import { createSqlRequestLog } from './request-log-sql.js';
import { createRequestRing, type Trace } from './request-ring.js';
import { registerServices, type ConsoleDispatcher, type ConsoleLimiter } from './services.js';
import type { Invoke } from './view.js';

export type AttachedConsole = {
  /** The request log the console reads: this process's ring, or the shared one in a PostgreSQL database. */
  log: RequestLog;
  /**
   * Logs one request of the API, the control API or the applicant page (the console's own are not logged),
   * of a server made with `createServer(tappable, ...)`; its entry is added by `finished`, which the
   * server calls from its 'finish' listener.
   */
  watch(req: IncomingMessage, res: ServerResponse, trace: Trace, path: string | undefined): void;
  finished(res: ServerResponse): void;
  handle: ConsoleApp['handle'];
  /** Who a request with the right admin token acts as: no company, every address (services.ts). */
  operator: Company;
  close(): void;
};

export const isConsolePath = (path: string): boolean => path === '/console' || path.startsWith('/console/');

export function attachConsole(options: { companies: Map<string, Company>; adminToken?: string; clock: Clock; limiter: ConsoleLimiter; dispatcher: ConsoleDispatcher; secrets: readonly string[]; invoke: Invoke; database?: Database }): AttachedConsole {
  // Instances that share a PostgreSQL share the log too; PGlite (one process) and memory keep it in the ring.
  const shared = options.database?.kind === 'postgres' ? createSqlRequestLog({ database: options.database, secrets: options.secrets }) : undefined;
  const ring = createRequestRing({ companies: options.companies, secrets: options.secrets, clock: options.clock, size: shared ? 1 : undefined, onRecord: shared?.record });
  const log = shared ?? memoryLog(ring);
  const operator = registerServices(options.companies.values(), { ring: log, limiter: options.limiter, dispatcher: options.dispatcher });
  const app = createConsole({ ...options, ring: log });
  return {
    log,
    watch(req, res, trace, path) {
      if (path !== undefined && isConsolePath(path)) return;
      ring.watch(req, res, trace, path);
    },
    finished: ring.finished,
    handle: app.handle,
    operator,
    close() {
      app.close();
      log.close();
    },
  };
}
