// Rules of the PGlite mirror (mirror.ts) that a handler or a user meets: an ID held by another company is
// refused with the hint about --seed, a transaction writes only its own company's records, a record
// deleted and put again goes to the end of the list (in its transaction and in the next one built on its
// unconfirmed writes), and a company's reset waits for the transaction the company is running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { Attachment, Collections, User } from '../state.js';
import type { Database } from './database.js';
import { mirroredState } from './mirror.js';
import { heldCommits } from './held-commits.test-helper.js';
import { openPglite } from './pglite.js';

// One database for the three tests (PGlite takes a second to start), a company or two each.
const [a, b, c, d] = ['ck_test_rules_a_0000', 'ck_test_rules_b_0000', 'ck_test_rules_c_0000', 'ck_test_rules_d_0000'];
const user = (id: string): User => ({ id, username: `${id}@example.org`, email: `${id}@example.org`, roles: ['call_center_operator'], emailVerified: false });

let shared: Database;
beforeAll(async () => {
  shared = await openPglite();
}, 60_000);
afterAll(() => shared?.close());

it("refuses an ID another company holds, and a transaction's write of another company's record", async () => {
  const state = mirroredState(shared, defaultLimits);
  await state.users.put(b, 'usr_x', user('usr_x'));
  await expect(state.users.put(a, 'usr_x', user('usr_x'))).rejects.toThrow("ID usr_x is another company's record: do not use --seed with a kept database");
  await expect(state.transaction(a, (tx) => tx.users.put(b, 'usr_y', user('usr_y')))).rejects.toThrow("a transaction of one company wrote another company's record");
  expect((await state.users.list(a)).map((u) => u.id)).toEqual([]);
  expect((await state.users.list(b)).map((u) => u.id)).toEqual(['usr_x']);
  // Its own record may be put again.
  await state.users.put(b, 'usr_x', { ...user('usr_x'), emailVerified: true });
  expect((await state.users.get(b, 'usr_x'))!.emailVerified).toBe(true);
}, 60_000);

it('lists a record deleted and put again last, in its transaction, in the next one built on it, and once committed', async () => {
  const db = shared;
  const { database: held, hold } = heldCommits(db);
  const state = mirroredState(held, defaultLimits);
  for (const id of ['usr_1', 'usr_2', 'usr_3']) await state.users.put(c, id, user(id));
  const ids = (users: User[]) => users.map((u) => u.id);
  const release = hold();
  const first = state.transaction(c, async (tx) => {
    await tx.users.delete(c, 'usr_1');
    await tx.users.put(c, 'usr_1', { ...user('usr_1'), emailVerified: true });
    return [ids(await tx.users.list(c)), ids(await tx.users.page(c, 0, 2)), await tx.users.count(c)];
  });
  let read!: () => void;
  const wasRead = new Promise<void>((resolve) => (read = resolve));
  // Built on the first one's writes, unconfirmed: it sees usr_1 last too, and moves usr_2 the same way.
  const second = state.transaction(c, async (tx) => {
    const seen = [ids(await tx.users.list(c)), await tx.users.count(c)];
    await tx.users.delete(c, 'usr_2');
    await tx.users.put(c, 'usr_2', user('usr_2'));
    seen.push(ids(await tx.users.list(c)), ids(await tx.users.page(c, 1, 1)));
    read();
    return seen;
  });
  await wasRead;
  release();
  expect(await first).toEqual([['usr_2', 'usr_3', 'usr_1'], ['usr_2', 'usr_3'], 3]);
  expect(await second).toEqual([['usr_2', 'usr_3', 'usr_1'], 3, ['usr_3', 'usr_1', 'usr_2'], ['usr_1']]);
  expect(ids(await state.users.list(c))).toEqual(['usr_3', 'usr_1', 'usr_2']);
  expect((await state.users.get(c, 'usr_1'))!.emailVerified).toBe(true);
  const reloaded = mirroredState(db, defaultLimits);
  expect(ids(await reloaded.users.list(c))).toEqual(['usr_3', 'usr_1', 'usr_2']);
}, 60_000);

it("resets a company after the transaction it is running: what that transaction wrote is reset too", async () => {
  const state = mirroredState(shared, defaultLimits);
  await state.users.put(d, 'usr_d0', user('usr_d0'));
  let proceed!: () => void;
  const mayWrite = new Promise<void>((resolve) => (proceed = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const transaction = state.transaction(d, async (tx) => {
    started();
    await mayWrite;
    await tx.users.put(d, 'usr_d1', user('usr_d1'));
  });
  await running;
  const reset = state.clear(d);
  proceed();
  await Promise.all([transaction, reset]);
  expect(await state.users.list(d)).toEqual([]);
  expect(await state.users.count(d)).toBe(0);
}, 60_000);

it('lists, counts and keeps nothing of a record added and deleted in the same transaction', async () => {
  const e = 'ck_test_rules_e_0000';
  const state = mirroredState(shared, defaultLimits);
  await state.users.put(e, 'usr_e0', user('usr_e0'));
  const seen = await state.transaction(e, async (tx) => {
    await tx.users.put(e, 'usr_e1', user('usr_e1'));
    await tx.users.delete(e, 'usr_e1');
    return [(await tx.users.list(e)).map((u) => u.id), await tx.users.count(e), (await tx.users.page(e, 0, 5)).map((u) => u.id), await tx.users.get(e, 'usr_e1')];
  });
  expect(seen).toEqual([['usr_e0'], 1, ['usr_e0'], undefined]);
  expect((await state.users.list(e)).map((u) => u.id)).toEqual(['usr_e0']);
  expect(await state.users.ownerOf('usr_e1')).toBeUndefined();
}, 60_000);

describe('the byte budget and the order inside a transaction', () => {
  const f = 'ck_test_rules_f_0000';
  const file = (id: string): Attachment => ({ id, sessionId: 'sess_1', stepKey: 's', questionKey: 'q', contentType: 'image/png', bytes: new Uint8Array(400), uploadedAt: '2026-01-01T00:00:00.000Z' });
  const small = { ...defaultLimits, maxBytesPerCompany: 1_000 }; // a file here is 656 bytes: one fits, two do not

  it("counts a transaction's puts against the byte budget together, and a delete not yet committed frees its bytes for the next transaction", async () => {
    const { database: held, hold } = heldCommits(shared);
    const state = mirroredState(held, small);
    await state.users.put(f, 'usr_f0', user('usr_f0'));
    const outcome = (write: Promise<unknown>) => write.then(() => 'stored', (error: Error) => error.message);
    // Two files in one transaction: the second is refused, the first kept.
    expect(await state.transaction(f, async (tx) => [await outcome(tx.files.put(f, 'file_f1', file('file_f1'))), await outcome(tx.files.put(f, 'file_f2', file('file_f2')))])).toEqual([
      'stored',
      'the company holds as many records as the sandbox keeps (limits.ts)',
    ]);
    // Its delete held unconfirmed: the next transaction may put another file in the bytes it frees.
    const release = hold();
    const deleted = state.files.delete(f, 'file_f1');
    const next = state.transaction(f, (tx) => outcome(tx.files.put(f, 'file_f3', file('file_f3'))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(await deleted).toBe(true);
    expect(await next).toBe('stored');
    expect((await state.files.list(f)).map((x) => x.id)).toEqual(['file_f3']);
  }, 60_000);

  it('keeps a record replaced twice in a transaction in its place, in the next transaction too', async () => {
    const g = 'ck_test_rules_g_0000';
    const { database: held, hold } = heldCommits(shared);
    const state = mirroredState(held, defaultLimits);
    for (const id of ['usr_g1', 'usr_g2']) await state.users.put(g, id, user(id));
    const ids = async (tx: Collections) => (await tx.users.list(g)).map((u) => u.id);
    const release = hold();
    const first = state.transaction(g, async (tx) => {
      await tx.users.put(g, 'usr_g1', { ...user('usr_g1'), emailVerified: true });
      await tx.users.put(g, 'usr_g1', user('usr_g1'));
      return ids(tx);
    });
    const second = state.transaction(g, async (tx) => {
      await tx.users.put(g, 'usr_g1', { ...user('usr_g1'), emailVerified: true });
      return ids(tx);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect([await first, await second]).toEqual([
      ['usr_g1', 'usr_g2'],
      ['usr_g1', 'usr_g2'],
    ]);
    expect((await state.users.list(g)).map((u) => [u.id, u.emailVerified])).toEqual([
      ['usr_g1', true],
      ['usr_g2', false],
    ]);
  }, 60_000);
});
