// Everything the sandbox stores, behind the Store interface (store.ts), and the records' shapes.
import type { Step } from './companies.js';
import { defaultLimits, type Limits } from './limits.js';
import { createBudget, memoryCollection, type Collection } from './store.js';

export type SessionStatus = 'created' | 'approved' | 'rejected' | 'manual-check' | 'additional-information-requested';

export type Activity = { id: string; type: string; time: string; data: Record<string, unknown> };
export type Attachment = { id: string; sessionId: string; stepKey: string; questionKey: string; contentType: string; bytes: Uint8Array; uploadedAt: string };
export type VideoCall = { roomId: string; roomStatus: 'created' | 'ended' | 'empty'; compositionStatus: null | 'started' | 'available'; videoFileStatus: null | 'started' | 'available'; videoFileId: string | null };

export type Session = {
  id: string;
  kind: 'kyc' | 'kyb';
  configId?: string;
  name?: string;
  parentId?: string;
  steps: Step[];
  general: Record<string, unknown>;
  flags: Record<string, unknown>;
  clientUserId?: string;
  groupId?: string;
  createdAt: number;
  expiresAt: number;
  status: SessionStatus;
  finishedAt?: number;
  /** Why a finished session was rejected, when the sandbox decided it (a blacklist match). */
  rejection?: { value: string; description: string };
  activities: Activity[];
  videoCall?: VideoCall;
  /** What the request that made it added to memory, estimated (the per-company byte budget counts it). */
  storedBytes: number;
};

export type BlacklistRecord = { id: string; reason: string; notes?: string; firstName?: string; lastName?: string; personalNumber?: string; documentNumber?: string; birthday?: string };
export type User = { id: string; username: string; email: string; firstName?: string; lastName?: string; roles: string[]; emailVerified: boolean };
export type Group = { id: string; name: string; description?: string; memberUserIds: string[] };
export type MonitoringQuery = { id: string; fullName: string; birthdayTimeFrom?: string; createdAt: number; lastUpdatedDate?: string; key?: string };

export type State = {
  sessions: Collection<Session>;
  blacklist: Collection<BlacklistRecord>;
  users: Collection<User>;
  groups: Collection<Group>;
  monitoring: Collection<MonitoringQuery>;
  files: Collection<Attachment>;
  /** Forgets one company's records, or everyone's. */
  clear(company?: string): void;
};

const lower = (text: string | undefined) => (text === undefined ? undefined : text.trim().toLowerCase());
/** A JSON record's size estimate: its JSON length (once, when stored). */
const jsonSize = (record: unknown) => JSON.stringify(record)?.length ?? 0;

/** The blacklist check's keys (blacklist-match.ts): document number, personal number, first and last name. */
export function blacklistMatchKeys(fields: { documentNumber?: string; personalNumber?: string; firstName?: string; lastName?: string }): string[] {
  const keys: string[] = [];
  if (fields.documentNumber !== undefined) keys.push(`doc:${lower(fields.documentNumber)}`);
  if (fields.personalNumber !== undefined) keys.push(`pn:${lower(fields.personalNumber)}`);
  if (fields.firstName !== undefined && fields.lastName !== undefined) keys.push(`name:${lower(fields.firstName)}\u0000${lower(fields.lastName)}`);
  return keys;
}

export function memoryState(limits: Limits = defaultLimits): State {
  const budget = createBudget(limits.maxBytesPerCompany);
  const maxPerCompany = limits.maxRecordsPerCompany;
  const state = {
    sessions: memoryCollection<Session>({
      maxPerCompany,
      budget,
      // What a request can make large: its steps, settings and flags (activities are capped apart).
      sizeOf: (s) => s.storedBytes,
      indexes: { parent: (s) => (s.parentId === undefined ? [] : [s.parentId]) },
    }),
    blacklist: memoryCollection<BlacklistRecord>({ maxPerCompany, budget, sizeOf: jsonSize, indexes: { match: blacklistMatchKeys } }),
    users: memoryCollection<User>({ maxPerCompany, budget, sizeOf: jsonSize, indexes: { email: (u) => [u.email.toLowerCase()] } }),
    groups: memoryCollection<Group>({ maxPerCompany, budget, sizeOf: jsonSize, indexes: { member: (g) => g.memberUserIds } }),
    monitoring: memoryCollection<MonitoringQuery>({ maxPerCompany, budget, sizeOf: jsonSize, indexes: { key: (m) => (m.key === undefined ? [] : [m.key]) } }),
    files: memoryCollection<Attachment>({ maxPerCompany, budget, sizeOf: (f) => 256 + f.bytes.length, indexes: { session: (f) => [f.sessionId] } }),
    clear(company?: string) {
      for (const collection of [state.sessions, state.blacklist, state.users, state.groups, state.monitoring, state.files]) collection.clear(company);
      budget.clear(company);
    },
  };
  return state;
}
