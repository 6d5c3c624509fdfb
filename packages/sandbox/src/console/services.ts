// What the console's control operations need beyond a handler's context: the request log, the rate
// limiter and the callback dispatcher of the sandbox the company belongs to. Found through the company
// (a handler's context carries it), so that the context stays as it is for every other handler.
import type { Dispatcher } from '../callbacks.js';
import type { Company } from '../companies.js';
import type { RateLimiter } from '../rate-limit.js';
import type { RequestRing } from './request-ring.js';

export type ConsoleServices = { ring: RequestRing; limiter: RateLimiter; dispatcher: Dispatcher };

const byCompany = new WeakMap<Company, ConsoleServices>();

/** Makes the services reachable from the companies' handlers (the last sandbox given a company wins). */
export function registerServices(companies: Iterable<Company>, services: ConsoleServices): void {
  for (const company of companies) byCompany.set(company, services);
}

export function servicesOf(company: Company): ConsoleServices {
  const services = byCompany.get(company);
  if (!services) throw new Error(`No console services for company ${company.name}`);
  return services;
}
