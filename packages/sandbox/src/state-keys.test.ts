// What each kind of record is stored with (state.ts collectionSpecs): its index keys, its size and its
// cap. A database (PGlite's data folder, a PostgreSQL) keeps the keys in its `<table>_keys` tables and
// the sizes in each company's usage (sql/store.ts), so they are a stored format: the sandbox must find
// by them tomorrow what it wrote today. The blacklist check finds its candidates by the match keys, so a
// key is blind to what the check is blind to (case, surrounding spaces: blacklist-match.ts) and to no more.
import { describe, expect, it } from 'vitest';
import { StoreFull } from './errors.js';
import { defaultLimits } from './limits.js';
import { blacklistMatchKeys, collectionNames, collectionSpecs, memoryState, type Attachment, type Group, type MonitoringQuery, type Session, type User } from './state.js';
import { Duplicate } from './store.js';

const limits = { ...defaultLimits, maxRecordsPerCompany: 7 };
const specs = collectionSpecs(limits);
const company = 'ck_test_state_keys_0000';
const other = 'ck_test_state_keys_1111';

describe('the blacklist match keys', () => {
  it('are one per identifying field, lower-cased and trimmed, in a fixed format', () => {
    expect(blacklistMatchKeys({ documentNumber: ' AB-12 ', personalNumber: 'Pn 9 ', firstName: ' Jane', lastName: 'SAMPLE ' })).toEqual(['doc:ab-12', 'pn:pn 9', 'name:jane\u0000sample']);
  });

  it('give a name key only for first and last name together, and none for no field', () => {
    expect(blacklistMatchKeys({ firstName: 'Jane' })).toEqual([]);
    expect(blacklistMatchKeys({ lastName: 'Sample' })).toEqual([]);
    expect(blacklistMatchKeys({ documentNumber: 'X1' })).toEqual(['doc:x1']);
    expect(blacklistMatchKeys({ personalNumber: 'X1' })).toEqual(['pn:x1']);
    expect(blacklistMatchKeys({})).toEqual([]);
  });

  it("find a record stored with sloppy fields by a person's fields, and not by another field's value", async () => {
    const state = memoryState(limits);
    await state.blacklist.put(company, 'blk_1', { id: 'blk_1', reason: 'test', documentNumber: ' Ab12 ', firstName: 'JANE ', lastName: ' sample' });
    const found = async (key: string) => (await state.blacklist.find(company, 'match', key)).map((r) => r.id);
    for (const key of blacklistMatchKeys({ documentNumber: 'AB12', firstName: 'Jane', lastName: 'Sample' })) expect(await found(key)).toEqual(['blk_1']);
    expect(await found(blacklistMatchKeys({ personalNumber: 'AB12' })[0]!)).toEqual([]);
  });
});

describe('each collection', () => {
  it('is capped at maxRecordsPerCompany', () => {
    for (const name of collectionNames) expect(specs[name].maxPerCompany).toBe(7);
    expect(collectionNames).toEqual(['sessions', 'blacklist', 'users', 'groups', 'monitoring', 'files']);
  });

  it('counts a session as the bytes its request brought, and finds it by its parent', () => {
    const session = { id: 'ses_2', parentId: 'ses_1', storedBytes: 321 } as Session;
    expect(specs.sessions.sizeOf!(session)).toBe(321);
    expect(specs.sessions.indexes!.parent!(session)).toEqual(['ses_1']);
    expect(specs.sessions.indexes!.parent!({ ...session, parentId: undefined })).toEqual([]);
  });

  it('counts a blacklist record, a user, a group and a monitored name as their JSON', () => {
    const blk = { id: 'blk_1', reason: 'Forged "passport"', documentNumber: 'X1' };
    const user: User = { id: 'usr_1', username: 'u', email: 'Jane@Example.org', roles: ['administrator'], emailVerified: false };
    const group: Group = { id: 'grp_1', name: 'g', memberUserIds: ['usr_1', 'usr_2'] };
    const monitored = { id: 'mon_1', fullName: 'Jane Sample', createdAt: 5, key: 'k' } as MonitoringQuery;
    expect(specs.blacklist.sizeOf!(blk)).toBe(JSON.stringify(blk).length);
    expect(specs.users.sizeOf!(user)).toBe(JSON.stringify(user).length);
    expect(specs.groups.sizeOf!(group)).toBe(JSON.stringify(group).length);
    expect(specs.monitoring.sizeOf!(monitored)).toBe(JSON.stringify(monitored).length);
    expect(specs.users.indexes!.email!(user)).toEqual(['jane@example.org']);
    expect(specs.groups.indexes!.member!(group)).toEqual(['usr_1', 'usr_2']);
    expect(specs.monitoring.indexes!.key!(monitored)).toEqual(['k']);
    expect(specs.monitoring.indexes!.key!({ ...monitored, key: undefined })).toEqual([]);
  });

  it('counts a file as its bytes plus 256, and finds it by its session', () => {
    const file: Attachment = { id: 'f_1', sessionId: 'ses_1', stepKey: 's', questionKey: 'q', contentType: 'image/png', bytes: new Uint8Array(69), uploadedAt: '2026-01-01T00:00:00.000Z' };
    expect(specs.files.sizeOf!(file)).toBe(325);
    expect(specs.files.indexes!.session!(file)).toEqual(['ses_1']);
  });
});

describe('the memory state', () => {
  it('says it is the memory engine', () => {
    expect(memoryState(limits).kind).toBe('memory');
  });

  it('keeps one monitored name per duplicate key and company; names without a key are never duplicates', async () => {
    const state = memoryState(limits);
    const monitored = (id: string, key?: string) => ({ id, fullName: 'Jane Sample', createdAt: 1, ...(key === undefined ? {} : { key }) }) as MonitoringQuery;
    await state.monitoring.put(company, 'mon_1', monitored('mon_1', 'jane'));
    await expect(state.monitoring.put(company, 'mon_2', monitored('mon_2', 'jane'))).rejects.toBeInstanceOf(Duplicate);
    await state.monitoring.put(other, 'mon_3', monitored('mon_3', 'jane'));
    await state.monitoring.put(company, 'mon_4', monitored('mon_4'));
    await state.monitoring.put(company, 'mon_5', monitored('mon_5'));
    expect((await state.monitoring.list(company)).map((m) => m.id)).toEqual(['mon_1', 'mon_4', 'mon_5']);
  });

  it("forgets every kind of a company's records on clear, and frees its byte budget", async () => {
    const state = memoryState({ ...limits, maxBytesPerCompany: 1_000 });
    await state.sessions.put(company, 'ses_1', { id: 'ses_1', storedBytes: 10 } as Session);
    await state.blacklist.put(company, 'blk_1', { id: 'blk_1', reason: 'r', documentNumber: 'D1' });
    await state.users.put(company, 'usr_1', { id: 'usr_1', username: 'u', email: 'u@example.org', roles: [], emailVerified: false });
    await state.groups.put(company, 'grp_1', { id: 'grp_1', name: 'g', memberUserIds: [] });
    await state.monitoring.put(company, 'mon_1', { id: 'mon_1', fullName: 'n', createdAt: 1 } as MonitoringQuery);
    await state.files.put(company, 'f_1', { id: 'f_1', sessionId: 'ses_1', stepKey: 's', questionKey: 'q', contentType: 'image/png', bytes: new Uint8Array(500), uploadedAt: '2026-01-01T00:00:00.000Z' });
    await expect(state.files.put(company, 'f_2', { id: 'f_2', sessionId: 'ses_1', stepKey: 's', questionKey: 'q', contentType: 'image/png', bytes: new Uint8Array(500), uploadedAt: '2026-01-01T00:00:00.000Z' })).rejects.toBe(StoreFull.instance);
    await state.clear(company);
    for (const name of collectionNames) expect(await state[name].count(company)).toBe(0);
    await state.files.put(company, 'f_2', { id: 'f_2', sessionId: 'ses_1', stepKey: 's', questionKey: 'q', contentType: 'image/png', bytes: new Uint8Array(500), uploadedAt: '2026-01-01T00:00:00.000Z' });
    await state.close();
  });
});
