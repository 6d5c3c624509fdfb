// Sessions: creation from configurations, lookups that keep companies apart, status moves, expiry.
import { refuse } from './codes.js';
import type { SessionConfig, Step } from './companies.js';
import type { Context } from './context.js';
import type { Activity, Session, SessionStatus } from './state.js';

const kybStepTypes = new Set(['company', 'beneficiaries', 'kyb-review']);
/** Our choice when neither configuration nor request sets a lifetime: one day. */
export const defaultLifetimeMinutes = 1440;

export const applicantUrl = (context: Pick<Context, 'origin'>, id: string) => `${context.origin}/widget/?session_token=${id}`;

/**
 * The company's session, or the documented refusal: `invalid-access` when another company holds it (if
 * the operation lists that code), else `session-not-found`.
 */
export async function sessionOf(context: Context, id: unknown): Promise<Session> {
  // Stryker disable next-line all: equivalent: every operation's schema makes the ID a string, and a non-string would get the same first documented code from the lookups below.
  if (typeof id !== 'string') refuse(context, 'session-not-found', 'wrong-parameters');
  const session = await context.state.sessions.get(context.company.companyKey, id);
  if (session) return session;
  if ((await context.state.sessions.ownerOf(id)) !== undefined) refuse(context, 'invalid-access', 'session-not-found');
  refuse(context, 'session-not-found', 'invalid-access', 'not-found', 'wrong-parameters');
}

export function record(context: Pick<Context, 'ids' | 'clock' | 'limits'>, session: Session, type: string, data: Record<string, unknown> = {}): Activity {
  const activity = { id: context.ids.next('act'), type, time: new Date(context.clock.now()).toISOString(), data };
  session.activities.push(activity);
  // Each opening of the applicant page adds one: keep the first (the creation) and the latest.
  if (session.activities.length > context.limits.maxActivitiesPerSession) session.activities.splice(1, 1);
  return activity;
}

function lifetimeMinutes(context: Context, general: Record<string, unknown>): number {
  const value = general.sessionLifetime ?? defaultLifetimeMinutes;
  // Stryker disable next-line all: equivalent: the schemas let only numbers and strings through, and a blank string is refused on the next line either way (Number('') is 0).
  const minutes = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: a string left here is blank, which Number.isFinite refuses too; begin's first documented code is wrong-parameters.
  if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes <= 0) refuse(context, 'wrong-parameters');
  return minutes;
}

const frozen = new WeakSet<object>();
/**
 * Freezes a value and everything in it, once: configuration steps are shared by every session made from
 * them (a copy each was most of a session's memory), so nothing may change them.
 */
function deepFreeze<T>(value: T): T {
  // Stryker disable next-line all: freezing guards against a handler that would change shared steps; none does, so no answer shows whether they are frozen, or frozen twice (only a null in a configuration's steps, which no schema'd configuration here holds, would show `value === null` gone).
  if (value === null || typeof value !== 'object' || frozen.has(value)) return value;
  frozen.add(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/**
 * Configuration steps with request steps replacing those of the same key; new keys are appended. The
 * configuration's steps are shared, frozen; the request's are the request's own (parsed for it alone).
 */
export function mergeSteps(base: Step[], overrides: Step[] = []): Step[] {
  // Stryker disable next-line ConditionalExpression: equivalent: without overrides the merge below gives the same steps.
  if (!overrides.length) return deepFreeze(base);
  const byKey = new Map(overrides.map((step) => [step.key, step]));
  const merged = deepFreeze(base).map((step) => byKey.get(step.key) ?? step);
  const known = new Set(base.map((step) => step.key));
  return [...merged, ...overrides.filter((step) => !known.has(step.key))];
}

export type SessionInput = {
  configId?: string;
  parentId?: string;
  name?: string;
  groupId?: string;
  clientUserId?: string;
  general?: Record<string, unknown>;
  flags?: Record<string, unknown>;
  steps?: Step[];
};

export function configOf(context: Context, configId: string | undefined): SessionConfig | undefined {
  if (configId === undefined) return undefined;
  return context.company.sessionConfigs.find((config) => config.id === configId) ?? refuse(context, 'wrong-parameters');
}

/** Creates a session; the saved configuration it starts from is copied, never modified. */
export async function createSession(context: Context, input: SessionInput): Promise<Session> {
  const config = configOf(context, input.configId);
  if (input.parentId !== undefined) await sessionOf(context, input.parentId);
  if (input.groupId !== undefined && !(await context.state.groups.get(context.company.companyKey, input.groupId))) refuse(context, 'wrong-parameters', 'invalid-access');
  const general = { ...deepFreeze(config?.general ?? {}), ...input.general };
  const steps = mergeSteps(config?.steps ?? defaultSteps, input.steps);
  const now = context.clock.now();
  const session: Session = {
    id: context.ids.next('sess'),
    kind: steps.some((step) => kybStepTypes.has(step.type)) ? 'kyb' : 'kyc',
    configId: config?.id,
    name: input.name,
    parentId: input.parentId,
    steps,
    general,
    // Stryker disable next-line LogicalOperator: equivalent: a session's flags are stored and never read back by an operation.
    flags: input.flags ?? {},
    clientUserId: input.clientUserId,
    groupId: input.groupId,
    storedBytes: 512 + (input.steps || input.general || input.flags || input.name ? JSON.stringify([input.steps, input.general, input.flags, input.name]).length : 0),
    createdAt: now,
    expiresAt: now + lifetimeMinutes(context, general) * 60_000,
    status: 'created',
    activities: [],
  };
  if (steps.some((step) => step.type === 'video-call')) {
    session.videoCall = { roomId: context.ids.next('room'), roomStatus: 'created', compositionStatus: null, videoFileStatus: null, videoFileId: null };
  }
  record(context, session, 'SESSION_CREATED', { configId: config?.id ?? null });
  await saveSession(context, session);
  return session;
}

/** A child of `parent` with a fresh applicant URL, as an additional-information request makes it. */
export function createChild(context: Context, parent: Session): Promise<Session> {
  return createSession(context, { configId: parent.configId, parentId: parent.id, general: parent.general, steps: parent.steps });
}

/** Without configuration or steps the service starts a default session; this is the sandbox's default. */
// Stryker disable ObjectLiteral,ArrayDeclaration,StringLiteral,BooleanLiteral: equivalent: the steps' flags are stored and never read back by an operation (their types and keys are tested).
export const defaultSteps: Step[] = [
  { type: 'identity-document', key: 'identity-document', flags: { documentTypes: ['id', 'passport'] } },
  { type: 'liveness', key: 'liveness', flags: { liveness: true, maxLivenessAttempts: 3 } },
];
// Stryker restore ObjectLiteral,ArrayDeclaration,StringLiteral,BooleanLiteral

export const isExpired = (context: Pick<Context, 'clock'>, session: Session): boolean => context.clock.now() >= session.expiresAt;

const callbackResult: Record<Exclude<SessionStatus, 'created'>, string> = {
  approved: 'APPROVED',
  rejected: 'REJECTED',
  'manual-check': 'MANUAL_CHECK',
  'additional-information-requested': 'ADDITIONAL_INFORMATION_REQUESTED',
};

/** Stores a session after a change (a persistent store keeps only what was put). */
export const saveSession = (context: Pick<Context, 'state' | 'company'>, session: Session): Promise<void> => context.state.sessions.put(context.company.companyKey, session.id, session);

/** Moves a session to a status, records it, stores it, and queues the session-change callback. */
export async function moveTo(context: Context, session: Session, status: Exclude<SessionStatus, 'created'>): Promise<void> {
  session.status = status;
  if (status !== 'additional-information-requested') session.finishedAt = context.clock.now();
  record(context, session, 'STATUS_CHANGED', { status });
  await saveSession(context, session);
  context.emit({ type: 'session-change', sessionId: session.id, result: callbackResult[status], ...(session.kind === 'kyb' ? { sessionType: 'kyb' } : {}) });
}

/** The session and every session below it (children, their children). */
export async function sessionTree(context: Context, root: Session): Promise<Session[]> {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(await context.state.sessions.find(context.company.companyKey, 'parent', tree[i]!.id)));
  return tree;
}
