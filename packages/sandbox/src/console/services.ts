// What the console's control operations need beyond a handler's context: the request log, the rate
// limiter and the callback dispatcher of the sandbox the company belongs to. Found through the company
// (a handler's context carries it), so that the context stays as it is for every other handler.
import type { CallbackEvent, DeliveryAttempt } from '../callbacks.js';
import type { Company } from '../companies.js';
import type { AddressState } from '../rate-limit.js';
import type { RequestLog } from './request-log.js';

type Awaitable<T> = T | Promise<T>;
/** What the console needs of a dispatcher: the memory one answers at once, the outbox (sql/outbox.ts) by promises. */
export type ConsoleDispatcher = {
  enqueue(company: Company, event: CallbackEvent): Awaitable<string | undefined>;
  attempts(companyKey: string): Awaitable<DeliveryAttempt[]>;
  setPaused(companyKey: string, paused: boolean): Awaitable<void>;
  isPaused(companyKey: string): Awaitable<boolean>;
};

/** What the console needs of a rate limiter: the memory one answers at once, the shared one (sql/rate-limit.ts) by promises. */
export type ConsoleLimiter = { addresses(): Awaitable<AddressState[]>; unblock(ip: string): Awaitable<boolean> };

export type ConsoleServices = { ring: RequestLog; limiter: ConsoleLimiter; dispatcher: ConsoleDispatcher };

const byCompany = new WeakMap<Company, ConsoleServices>();
const operators = new WeakSet<Company>();

/**
 * Makes the services reachable from the companies' handlers (the last sandbox given a company wins), and
 * answers the sandbox's operator: who a request with the right admin token acts as (server.ts), a company
 * of its own that holds nothing and that no key names, so that its handlers answer for every address.
 */
export function registerServices(companies: Iterable<Company>, services: ConsoleServices): Company {
  for (const company of companies) byCompany.set(company, services);
  // Stryker disable next-line ObjectLiteral,StringLiteral,BooleanLiteral,ArrayDeclaration: no field of the operator is read. Only listRateLimit and unblockAddress run as it (server.ts), and they read its identity (isOperator); server.ts logs '(admin)' itself, and the key only names the transaction lock, which no company shares.
  const operator: Company = { name: '(admin)', companyKey: '', screeningPaid: false, trustedDatabase: false, registries: [], sessionConfigs: [] };
  byCompany.set(operator, services);
  operators.add(operator);
  return operator;
}

/** True for the operator of registerServices: an admin-token request, which sees every address. */
export const isOperator = (company: Company): boolean => operators.has(company);

export function servicesOf(company: Company): ConsoleServices {
  const services = byCompany.get(company);
  // Stryker disable next-line ConditionalExpression,StringLiteral: createSandbox registers every company of its map and the operator before any request, so no request reaches the throw; without it a wiring bug would still end in the same 500 (a TypeError on the next line).
  if (!services) throw new Error(`No console services for company ${company.name}`);
  return services;
}
