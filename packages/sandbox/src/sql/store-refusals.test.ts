// What the SQL store answers when it refuses a write, and what it keeps (store.ts `put`): refusals in the
// order the memory store gives them (the cap, then a unique key, then the byte budget), a refused write
// inside a transaction that leaves nothing behind and the transaction still usable, an ID another
// company holds, IDs that differ only by NUL or U+0001, the monitoring queries' own table, one company
// cleared while the other's records stay readable, and a failed count. On PostgreSQL (a pool on the test
// cluster opens in milliseconds, a PGlite in about a second; both run the same statements), beside the
// memory store for the rules both keep.
import { expect, it } from 'vitest';
import { StoreFull } from '../errors.js';
import { defaultLimits, type Limits } from '../limits.js';
import { memoryState, type BlacklistRecord, type MonitoringQuery, type State } from '../state.js';
import { Duplicate } from '../store.js';
import type { Database } from './database.js';
import { filePools } from './file-pools.test-helper.js';
import { sqlState } from './store.js';
import { user } from '../sample-records.test-helper.js';

const a = 'ck_test_refusals_a_0000';
const b = 'ck_test_refusals_b_0000';

const pool = filePools();
let shared: Promise<Database> | undefined;
async function postgres(limits: Partial<Limits> = {}): Promise<State> {
  const state = sqlState(await (shared ??= pool()), { ...defaultLimits, ...limits });
  await state.clear();
  return state;
}
const stores: [string, (limits?: Partial<Limits>) => Promise<State>][] = [
  ['memory', async (limits = {}) => memoryState({ ...defaultLimits, ...limits })],
  ['PostgreSQL', postgres],
];

for (const [name, open] of stores) {
  it(`${name}: at the cap, refuses a new record as full even when its unique key is taken, and a record put again whose key another holds as a duplicate`, async () => {
    const state = await open({ maxRecordsPerCompany: 2 });
    await state.users.put(a, 'usr_1', user('usr_1', 'one@example.org'));
    await state.users.put(a, 'usr_2', user('usr_2', 'two@example.org'));
    await expect(state.users.put(a, 'usr_3', user('usr_3', 'one@example.org'))).rejects.toBeInstanceOf(StoreFull);
    await expect(state.users.put(a, 'usr_2', user('usr_2', 'one@example.org'))).rejects.toEqual(new Duplicate('email'));
    await state.users.put(a, 'usr_2', user('usr_2', 'second@example.org'));
    expect((await state.users.list(a)).map((u) => u.email)).toEqual(['one@example.org', 'second@example.org']);
  }, 60_000);

  it(`${name}: a write refused inside a transaction stores nothing, and the transaction's next reads and writes go through`, async () => {
    const state = await open({ maxRecordsPerCompany: 2 });
    await state.users.put(a, 'usr_1', user('usr_1', 'one@example.org'));
    const outcome = await state.transaction(a, async (c) => {
      const refused: string[] = [];
      await c.users.put(a, 'usr_2', user('usr_2', 'one@example.org')).catch((error: Error) => refused.push(error.constructor.name));
      await c.users.put(a, 'usr_2', user('usr_2', 'two@example.org'));
      await c.users.put(a, 'usr_3', user('usr_3', 'three@example.org')).catch((error: Error) => refused.push(error.constructor.name));
      // A blacklist record (a kind with keys of two indexes, one unique) whose identity another holds.
      const record = (id: string) => ({ id, reason: 'fraud', documentNumber: 'ID-1', firstName: 'Ann', lastName: 'Doe' }) as BlacklistRecord;
      await c.blacklist.put(a, 'blk_1', record('blk_1'));
      await c.blacklist.put(a, 'blk_2', record('blk_2')).catch((error: Error) => refused.push(error.constructor.name));
      return { refused, count: await c.users.count(a), found: (await c.users.find(a, 'email', 'three@example.org')).length, records: await c.blacklist.count(a) };
    });
    expect(outcome).toEqual({ refused: ['Duplicate', 'StoreFull', 'Duplicate'], count: 2, found: 0, records: 1 });
    expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_2']);
    expect(await state.users.ownerOf('usr_3')).toBeUndefined();
  }, 60_000);

  it(`${name}: keeps IDs that differ only by NUL or U+0001 as different records`, async () => {
    const state = await open();
    const ids = ['usr_x', 'usr_x\u0000', 'usr_x\u0001', 'usr_x\u0001\u0002', 'usr_x\u0001\u0001'];
    for (const [i, id] of ids.entries()) await state.users.put(a, id, user(id, `u${i}@example.org`));
    for (const [i, id] of ids.entries()) expect((await state.users.get(a, id))?.email, JSON.stringify(id)).toBe(`u${i}@example.org`);
    expect(await state.users.delete(a, 'usr_x\u0000')).toBe(true);
    expect((await state.users.list(a)).map((u) => u.id)).toEqual(ids.filter((id) => id !== 'usr_x\u0000'));
    expect(await state.users.get(a, 'usr_x\u0000')).toBeUndefined();
  }, 60_000);

  it(`${name}: stores monitoring queries and finds them by their key, one per key`, async () => {
    const state = await open();
    const query = (id: string, key: string) => ({ id, key, createdAt: 1 }) as unknown as MonitoringQuery;
    await state.monitoring.put(a, 'mon_1', query('mon_1', 'key-1'));
    expect(await state.monitoring.get(a, 'mon_1')).toEqual(query('mon_1', 'key-1'));
    expect((await state.monitoring.find(a, 'key', 'key-1')).map((m) => m.id)).toEqual(['mon_1']);
    await expect(state.monitoring.put(a, 'mon_2', query('mon_2', 'key-1'))).rejects.toEqual(new Duplicate('key'));
    expect(await state.monitoring.count(a)).toBe(1);
  }, 60_000);

  it(`${name}: stores two records that share a key no rule makes unique (one document number, two people), and finds both by it`, async () => {
    const state = await open();
    const person = (id: string, firstName: string) => ({ id, reason: 'fraud', documentNumber: 'SHARED-1', firstName, lastName: 'Doe' }) as BlacklistRecord;
    await state.blacklist.put(a, 'blk_1', person('blk_1', 'Ann'));
    await state.blacklist.put(a, 'blk_2', person('blk_2', 'Bob'));
    // And inside a transaction, where the SQL store checks a write by itself rather than with others.
    await state.transaction(a, (c) => c.blacklist.put(a, 'blk_3', person('blk_3', 'Cy')));
    expect((await state.blacklist.find(a, 'match', 'doc:shared-1')).map((r) => r.id)).toEqual(['blk_1', 'blk_2', 'blk_3']);
  }, 60_000);

  it(`${name}: clearing one company leaves the other's records readable`, async () => {
    const state = await open();
    await state.users.put(a, 'usr_a', user('usr_a', 'a@example.org'));
    await state.users.put(b, 'usr_b', user('usr_b', 'b@example.org'));
    await state.clear(a);
    expect(await state.users.list(b)).toEqual([user('usr_b', 'b@example.org')]);
    expect(await state.users.get(b, 'usr_b')).toEqual(user('usr_b', 'b@example.org'));
    expect((await state.users.find(b, 'email', 'b@example.org')).length).toBe(1);
  }, 60_000);
}

it("PostgreSQL: refuses a record with an ID another company holds, naming the ID, and keeps the other's record", async () => {
  const state = await postgres();
  await state.users.put(b, 'usr_1', user('usr_1', 'b@example.org'));
  await expect(state.users.put(a, 'usr_1', user('usr_1', 'a@example.org'))).rejects.toThrow("ID usr_1 is another company's record: do not use --seed with a kept database");
  expect(await state.users.get(b, 'usr_1')).toEqual(user('usr_1', 'b@example.org'));
  expect(await state.users.count(a)).toBe(0);
}, 60_000);

it('PostgreSQL: a count whose statement fails rejects with the error, and so does each count waiting with it; a page alone too', async () => {
  const db = await (shared ??= pool());
  await sqlState(db, defaultLimits).clear();
  const failing: Database = { ...db, query: (text, params) => (/company_usage|offset/.test(text) && !/insert|update|delete/.test(text) ? Promise.reject(new Error('refused')) : db.query(text, params)) };
  const state = sqlState(failing, defaultLimits);
  await state.users.put(a, 'usr_1', user('usr_1', 'one@example.org'));
  const counts = await Promise.allSettled([state.users.count(a), state.users.count(a)]);
  expect(counts.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.status))).toEqual(['refused', 'refused']);
  await expect(state.users.page(a, 0, 10)).rejects.toThrow('refused');
}, 60_000);
