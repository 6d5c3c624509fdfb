// The console's rate-limit operations (openapi/sandbox/paths/list-rate-limit.yaml, unblock-address.yaml).
// The limit is per address, not per company: a company sees the addresses its own logged requests came
// from, so that it learns nothing of other companies' clients. The operator (the admin token, which the
// server checked before it ran these as the operator of console/services.ts) sees and unblocks any
// address: one whose requests named no company is blocked all the same.
import { refuse } from '../codes.js';
import type { Handlers } from '../context.js';
import { isOperator, servicesOf } from '../console/services.js';
import type { AddressState } from '../rate-limit.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const entry = (a: AddressState) => ({ ip: a.ip, requests: a.requests, windowStartedAt: iso(a.windowStart), blockedUntil: iso(a.blockedUntil) });

export const consoleRateLimitHandlers: Handlers = {
  async sandboxListRateLimit(context) {
    const { ring, limiter } = servicesOf(context.company);
    const operator = isOperator(context.company);
    // The operator's list: every logged address (`undefined`: any company's, or none's) and every tracked one.
    const logged = await ring.addresses(operator ? undefined : context.company.companyKey);
    // An address the limiter has forgotten (its window ended, or it was unblocked) shows a zero count.
    const tracked = new Map((await limiter.addresses()).map((a) => [a.ip, a]));
    const shown = operator ? [...new Set([...logged, ...tracked.keys()])].sort() : [...logged];
    const result = shown.map((ip) => entry(tracked.get(ip) ?? { ip, requests: 0, windowStart: null, blockedUntil: null }));
    return { json: { result } };
  },
  async sandboxUnblockAddress(context) {
    const { ring, limiter } = servicesOf(context.company);
    const ip = context.body.ip;
    if (!isOperator(context.company) && !(await ring.addresses(context.company.companyKey)).has(ip)) refuse(context, 'not-found');
    // An address that is not blocked stays as it is (openapi/sandbox/paths/unblock-address.yaml).
    await limiter.unblock(ip);
    return { json: { result: true } };
  },
};
