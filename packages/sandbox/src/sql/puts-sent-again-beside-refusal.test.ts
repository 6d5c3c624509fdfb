// Plain puts of one company sent at once (add-blacklist-record's, group-commit.ts `commitAhead`) beside a
// transaction its handler refused before any statement: when the puts' statement of several declines
// (a key already taken), the puts run again, alone, and the refused transaction still gets its own
// answer. A group is counted (onCommit) only with the transactions it committed. Puts of two kinds sent
// at once each land in their own kind.
import { expect, it } from 'vitest';
import type { Session } from '../state.js';
import { Duplicate } from '../store.js';
import { user } from '../sample-records.test-helper.js';
import { emptyStoreCountingGroups, filePools } from './file-pools.test-helper.js';

const a = 'ck_test_sent_again_a_0000';
const newPool = filePools();
const open = () => emptyStoreCountingGroups(newPool);
const outcome = (settled: PromiseSettledResult<unknown>) =>
  settled.status === 'fulfilled' ? 'stored' : settled.reason instanceof Duplicate ? 'duplicate' : `error: ${(settled.reason as Error).message}`;

it('answers a transaction refused before any statement beside puts whose statement declined, before the puts asked after it', async () => {
  const { state } = await open();
  await state.users.put(a, 'usr_taken', user('usr_taken', 'taken@example.org'));
  let refusal: string | undefined;
  const refused = state
    .transaction(a, async () => {
      throw new Error('refused before reading');
    })
    .catch((error: Error) => void (refusal = error.message));
  const puts = await Promise.allSettled([
    state.users.put(a, 'usr_1', user('usr_1', 'one@example.org')),
    state.users.put(a, 'usr_2', user('usr_2', 'taken@example.org')),
    state.users.put(a, 'usr_3', user('usr_3', 'three@example.org')),
  ]);
  expect(puts.map(outcome)).toEqual(['stored', 'duplicate', 'stored']);
  // Answered with the group that ran it, ahead of the puts, which the next group stored.
  expect(refusal).toBe('refused before reading');
  await refused;
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_taken', 'usr_1', 'usr_3']);
  expect(await state.users.count(a)).toBe(3);
}, 60_000);

it('counts the puts of a declined statement once, in the group that stored them', async () => {
  const { state, groups } = await open();
  await state.users.put(a, 'usr_taken', user('usr_taken', 'taken@example.org'));
  groups.length = 0;
  const outcomes = await Promise.allSettled([
    state.users.put(a, 'usr_1', user('usr_1', 'one@example.org')),
    state.users.put(a, 'usr_2', user('usr_2', 'taken@example.org')),
    state.users.put(a, 'usr_3', user('usr_3', 'three@example.org')),
  ]);
  expect(outcomes.map(outcome)).toEqual(['stored', 'duplicate', 'stored']);
  expect(groups).toEqual([3]);
}, 60_000);

it('stores puts of two kinds sent at once each in its own kind', async () => {
  const { state } = await open();
  const session = { id: 'sess_1', storedBytes: 0 } as unknown as Session;
  await Promise.all([state.users.put(a, 'usr_1', user('usr_1', 'one@example.org')), state.sessions.put(a, 'sess_1', session), state.users.put(a, 'usr_2', user('usr_2', 'two@example.org'))]);
  expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_1', 'usr_2']);
  expect((await state.sessions.list(a)).map((s) => s.id)).toEqual(['sess_1']);
  expect(await state.users.count(a)).toBe(2);
  expect(await state.sessions.count(a)).toBe(1);
}, 60_000);
