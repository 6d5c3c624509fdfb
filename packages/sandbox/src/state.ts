// Everything the sandbox stores, behind the Store interface (store.ts), and the records' shapes.
import type { Step } from './companies.js';
import { memoryCollection, type Collection } from './store.js';

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
};

export type BlacklistRecord = { id: string; reason: string; notes?: string; firstName?: string; lastName?: string; personalNumber?: string; documentNumber?: string; birthday?: string };
export type User = { id: string; username: string; email: string; firstName?: string; lastName?: string; roles: string[]; emailVerified: boolean };
export type Group = { id: string; name: string; description?: string; memberUserIds: string[] };
export type MonitoringQuery = { id: string; fullName: string; birthdayTimeFrom?: string; createdAt: number; lastUpdatedDate?: string };

export type State = {
  sessions: Collection<Session>;
  blacklist: Collection<BlacklistRecord>;
  users: Collection<User>;
  groups: Collection<Group>;
  monitoring: Collection<MonitoringQuery>;
  files: Collection<Attachment>;
  clear(): void;
};

export function memoryState(): State {
  const state = {
    sessions: memoryCollection<Session>(),
    blacklist: memoryCollection<BlacklistRecord>(),
    users: memoryCollection<User>(),
    groups: memoryCollection<Group>(),
    monitoring: memoryCollection<MonitoringQuery>(),
    files: memoryCollection<Attachment>(),
    clear() {
      for (const collection of [state.sessions, state.blacklist, state.users, state.groups, state.monitoring, state.files]) collection.clear();
    },
  };
  return state;
}
