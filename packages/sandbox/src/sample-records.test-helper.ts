// The console user and the blacklist record the store tests write, smallest valid of each.
import type { BlacklistRecord, User } from './state.js';

export const user = (id: string, email: string): User => ({ id, username: email, email, roles: ['call_center_operator'], emailVerified: false });
export const blk = (id: string, documentNumber: string, extra: Partial<BlacklistRecord> = {}): BlacklistRecord => ({ id, reason: 'fraud', documentNumber, ...extra });
