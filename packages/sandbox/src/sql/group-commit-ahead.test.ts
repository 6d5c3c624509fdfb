// A group made only of puts outside a transaction (add-blacklist-record's, issue 15's bench) sends its
// company lock, its statement of several writes and its COMMIT in one round trip (group-commit.ts
// `commitAhead`), and still answers each put as the same puts one after another would: when the statement
// declines (a taken key, a key twice, the cap) or PostgreSQL refuses it, the puts run again, alone, ahead
// of the company's later ones.
import { expect, it } from 'vitest';
import { StoreFull } from '../errors.js';
import { defaultLimits, type Limits } from '../limits.js';
import type { Session, User } from '../state.js';
import { Duplicate } from '../store.js';
import { filePools } from './file-pools.test-helper.js';
import { recordingDatabase } from './recording-database.test-helper.js';
import { sqlState } from './store.js';

const a = 'ck_test_ahead_a_0000';
const user = (id: string, email = `${id}@example.org`): User => ({ id, username: email, email, roles: ['call_center_operator'], emailVerified: false });

const newPool = filePools();

/** A new pool on the file's database, emptied; `events` says, in order, what each group transaction sent and got back. */
async function open(limits: Limits = defaultLimits) {
  const db = await newPool();
  const groups: number[] = [];
  const { database: recording, events } = recordingDatabase(db, (text) => (/^select pg_advisory_xact_lock/.test(text) ? 'lock' : /insert into users /.test(text) ? 'write' : undefined));
  const state = sqlState(recording, limits, { onCommit: (size) => groups.push(size) });
  await state.clear();
  return { state, events, groups };
}

it("sends a group of puts' lock, statement and COMMIT before the statement's answer, and stores them in order", async () => {
  const { state, events, groups } = await open();
  const ids = ['usr_1', 'usr_2', 'usr_3', 'usr_4', 'usr_5'];
  await Promise.all(ids.map((id) => state.users.put(a, id, user(id))));
  expect(groups).toEqual([5]);
  expect(events.slice(0, 3)).toEqual(['sent lock', 'sent write', 'sent commit']);
  expect(events.filter((event) => event.startsWith('sent'))).toEqual(['sent lock', 'sent write', 'sent commit']);
  expect(events.indexOf('sent commit')).toBeLessThan(events.indexOf('answered write'));
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(ids);
  expect(await state.users.count(a)).toBe(5);
}, 60_000);

it('answers a taken key and a key twice as one by one would, and writes the others before the puts asked after them', async () => {
  const { state, groups, events } = await open();
  await state.users.put(a, 'usr_taken', user('usr_taken', 'taken@example.org'));
  groups.length = 0;
  events.length = 0;
  const first = ['usr_1', 'usr_2', 'usr_3', 'usr_4', 'usr_5'].map((id, i) => state.users.put(a, id, user(id, ['one', 'TAKEN', 'twice', 'twice', 'five'][i] + '@example.org')));
  // Asked once their group was sent: written after them whatever happens to that group.
  while (!events.includes('sent commit')) await new Promise((resolve) => setImmediate(resolve));
  const later = state.users.put(a, 'usr_6', user('usr_6'));
  const outcomes = await Promise.allSettled([...first, later]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(Duplicate);
  expect((outcomes[3] as PromiseRejectedResult).reason).toBeInstanceOf(Duplicate);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_taken', 'usr_1', 'usr_3', 'usr_5', 'usr_6']);
  expect(await state.users.count(a)).toBe(5);
}, 60_000);

it("refuses one put alone, and stops at the company's cap where one by one would", async () => {
  const { state } = await open({ ...defaultLimits, maxRecordsPerCompany: 3 });
  await state.users.put(a, 'usr_0', user('usr_0', 'zero@example.org'));
  await expect(state.users.put(a, 'usr_again', user('usr_again', 'zero@example.org'))).rejects.toBeInstanceOf(Duplicate);
  const outcomes = await Promise.allSettled(['usr_1', 'usr_2', 'usr_3', 'usr_4'].map((id) => state.users.put(a, id, user(id))));
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
  expect((outcomes[2] as PromiseRejectedResult).reason).toBe(StoreFull.instance);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_0', 'usr_1', 'usr_2']);
}, 60_000);

it('answers each put alone when PostgreSQL refuses the statement of several (a size beyond its integer column)', async () => {
  const { state } = await open();
  const session = (id: string, storedBytes = 0) => ({ id, storedBytes }) as unknown as Session;
  const outcomes = await Promise.allSettled([session('sess_1'), session('sess_big', 2 ** 40), session('sess_3')].map((s) => state.sessions.put(a, s.id, s)));
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22003' });
  expect((await state.sessions.list(a)).map((s) => s.id)).toEqual(['sess_1', 'sess_3']);
  expect(await state.sessions.count(a)).toBe(2);
}, 60_000);
