// What a console page is given: who is signed in, the request, and `call`, which runs a control (or API)
// operation in-process for one company, exactly as a script would over HTTP.
import type { Company } from '../companies.js';
import type { Markup } from './html.js';
import type { RequestLog } from './request-log.js';

/** A signed-in company, or the operator (admin token), who sees every company. */
export type Viewer = { admin: boolean; name: string; companies: Company[] };

export type Invoke = (operationId: string, fields: Record<string, unknown>, params?: Record<string, string>) => Promise<{ status: number; json?: unknown; bytes?: Uint8Array }>;

/** An operation answered other than 200: its documented code is shown to the tester. */
export class CallError extends Error {
  constructor(
    readonly operationId: string,
    readonly answer: unknown,
  ) {
    super(`${operationId}: ${JSON.stringify(answer)}`);
  }
}

export type View = {
  viewer: Viewer;
  url: URL;
  ring: RequestLog;
  /** Every company of the sandbox, in a fixed order: forms name a company by its place here, never by key. */
  all: Company[];
  call(company: Company, operationId: string, fields?: Record<string, unknown>): Promise<any>;
  /** A company's form reference (its place in `all`). */
  ref(company: Company): number;
  /** The company name of a company key (admin views label rows with it). */
  nameOf(companyKey: string | undefined): string;
};

export type Page = { title: string; body: Markup; live?: Markup; status?: number };
