// Wires the console into a sandbox: its request log (fed by `tap`), the services its control operations
// use, and the /console/ pages. server.ts calls `attachConsole` once and `tap` and `handle` per request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock.js';
import type { Company } from '../companies.js';
import { createConsole, type ConsoleApp } from './app.js';
import { createRequestRing, type RequestRing, type Trace } from './request-ring.js';
import { registerServices, type ConsoleDispatcher, type ConsoleLimiter } from './services.js';
import type { Invoke } from './view.js';

export type AttachedConsole = {
  ring: RequestRing;
  /** Logs one request of the API, the control API or the applicant page (the console's own are not logged). */
  tap(req: IncomingMessage, res: ServerResponse, trace: Trace, path: string | undefined): void;
  handle: ConsoleApp['handle'];
  close(): void;
};

export const isConsolePath = (path: string): boolean => path === '/console' || path.startsWith('/console/');

export function attachConsole(options: { companies: Map<string, Company>; adminToken?: string; clock: Clock; limiter: ConsoleLimiter; dispatcher: ConsoleDispatcher; secrets: readonly string[]; invoke: Invoke }): AttachedConsole {
  const ring = createRequestRing({ companies: options.companies, secrets: options.secrets, clock: options.clock });
  registerServices(options.companies.values(), { ring, limiter: options.limiter, dispatcher: options.dispatcher });
  const app = createConsole({ ...options, ring });
  return {
    ring,
    tap(req, res, trace, path) {
      if (path !== undefined && isConsolePath(path)) return;
      ring.tap(req, res, trace, path);
    },
    handle: app.handle,
    close: app.close,
  };
}
