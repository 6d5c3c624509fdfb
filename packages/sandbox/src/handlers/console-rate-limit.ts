// The console's rate-limit operations (openapi/sandbox/paths/list-rate-limit.yaml, unblock-address.yaml).
// The limit is per address, not per company: a company sees the addresses its own logged requests came
// from, so that it learns nothing of other companies' clients.
import { refuse } from '../codes.js';
import type { Handlers } from '../context.js';
import { servicesOf } from '../console/services.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const consoleRateLimitHandlers: Handlers = {
  async sandboxListRateLimit(context) {
    const { ring, limiter } = servicesOf(context.company);
    const own = await ring.addresses(context.company.companyKey);
    // An address the limiter has forgotten (its window ended, or it was unblocked) shows a zero count.
    const tracked = new Map((await limiter.addresses()).map((a) => [a.ip, a]));
    const result = [...own].map((ip) => tracked.get(ip) ?? { ip, requests: 0, windowStart: null, blockedUntil: null }).map((a) => ({ ip: a.ip, requests: a.requests, windowStartedAt: iso(a.windowStart), blockedUntil: iso(a.blockedUntil) }));
    return { json: { result } };
  },
  async sandboxUnblockAddress(context) {
    const { ring, limiter } = servicesOf(context.company);
    const ip = context.body.ip;
    if (!(await ring.addresses(context.company.companyKey)).has(ip)) refuse(context, 'not-found');
    // An address that is not blocked stays as it is (openapi/sandbox/paths/unblock-address.yaml).
    await limiter.unblock(ip);
    return { json: { result: true } };
  },
};
