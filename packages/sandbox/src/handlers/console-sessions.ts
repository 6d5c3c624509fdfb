// The console's session operations (openapi/sandbox/paths/list-sessions.yaml, get-session.yaml,
// expire-session.yaml). Every store call is awaited: the store may be asynchronous (PGlite, PostgreSQL).
import type { Sandbox } from '@idv-toolkit/types';
import type { Context, Handlers } from '../context.js';
import { applicantUrl, isExpired, record, sessionOf } from '../sessions.js';
import type { Session } from '../state.js';

const iso = (ms: number) => new Date(ms).toISOString();

async function summaryOf(context: Context, session: Session): Promise<Sandbox.SandboxSessionSummary> {
  const children = await context.state.sessions.find(context.company.companyKey, 'parent', session.id);
  return {
    id: session.id,
    kind: session.kind,
    status: session.status,
    configId: session.configId ?? null,
    name: session.name ?? null,
    parentId: session.parentId ?? null,
    childIds: children.map((child) => child.id),
    createdAt: iso(session.createdAt),
    expiresAt: iso(session.expiresAt),
    finishedAt: session.finishedAt === undefined ? null : iso(session.finishedAt),
    expired: isExpired(context, session),
    applicantUrl: applicantUrl(context, session.id),
  };
}

export const consoleSessionHandlers: Handlers = {
  async sandboxListSessions(context) {
    const company = context.company.companyKey;
    const limit = context.body.limit ?? 100;
    // The newest are the last stored: read only the page at the end.
    const count = await context.state.sessions.count(company);
    const page = await context.state.sessions.page(company, Math.max(0, count - limit), limit);
    const result = [];
    for (const session of page.reverse()) result.push(await summaryOf(context, session));
    return { json: { result } };
  },
  async sandboxGetSession(context) {
    return { json: { result: await summaryOf(context, await sessionOf(context, context.body.sessionId)) } };
  },
  async sandboxExpireSession(context) {
    const session = await sessionOf(context, context.body.sessionId);
    session.expiresAt = Math.min(session.expiresAt, context.clock.now());
    record(context, session, 'EXPIRED');
    await context.state.sessions.put(context.company.companyKey, session.id, session);
    return { json: { result: true } };
  },
};
