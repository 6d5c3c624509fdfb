// One behaviour, every store: the suite each store's test file runs (store.test.ts for memory,
// sql/store.test.ts for PGlite and PostgreSQL). A store passes when it behaves as memory does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreFull } from './errors.js';
import { defaultLimits, type Limits } from './limits.js';
import type { Attachment, State } from './state.js';
import { Duplicate } from './store.js';
import { blk, user } from './sample-records.test-helper.js';

const a = 'ck_test_store_a_0000';
const b = 'ck_test_store_b_0000';


/** A fresh state for each test; `close` ends whatever it opened. */
export type StateFactory = (limits: Limits) => Promise<{ state: State; close(): Promise<void> }>;

export function storeContract(name: string, open: StateFactory) {
  describe(`${name} store: the Collection contract`, () => {
    let opened: Awaited<ReturnType<StateFactory>> | undefined;
    let state: State;
    const start = async (limits: Partial<Limits> = {}) => {
      await opened?.close();
      opened = await open({ ...defaultLimits, ...limits });
      state = opened.state;
    };
    // A first SQL database may take seconds to start on a loaded machine.
    beforeEach(() => start(), 120_000);
    afterEach(async () => {
      await opened?.close();
      opened = undefined;
    });

    it('puts, gets, lists in insertion order, pages, counts and deletes, one company at a time', async () => {
      for (const [i, email] of ['x@example.org', 'y@example.org', 'z@example.org'].entries()) await state.users.put(a, `usr_${i}`, user(`usr_${i}`, email));
      await state.users.put(b, 'usr_b', user('usr_b', 'x@example.org'));
      expect(await state.users.get(a, 'usr_1')).toEqual(user('usr_1', 'y@example.org'));
      expect(await state.users.get(b, 'usr_1')).toBeUndefined();
      expect(await state.users.ownerOf('usr_b')).toBe(b);
      expect(await state.users.ownerOf('usr_nope')).toBeUndefined();
      expect((await state.users.list(a)).map((u) => u.id)).toEqual(['usr_0', 'usr_1', 'usr_2']);
      expect((await state.users.page(a, 1, 5)).map((u) => u.id)).toEqual(['usr_1', 'usr_2']);
      expect(await state.users.page(a, 3, 5)).toEqual([]);
      expect(await state.users.count(a)).toBe(3);
      expect(await state.users.delete(b, 'usr_1')).toBe(false);
      expect(await state.users.delete(a, 'usr_1')).toBe(true);
      expect(await state.users.delete(a, 'usr_1')).toBe(false);
      expect(await state.users.count(a)).toBe(2);
      expect(await state.users.ownerOf('usr_1')).toBeUndefined();
    });

    it('finds by index keys, and a replaced record by its new keys only, keeping its place in the order', async () => {
      await state.groups.put(a, 'grp_1', { id: 'grp_1', name: 'one', memberUserIds: ['usr_1', 'usr_2'] });
      await state.groups.put(a, 'grp_2', { id: 'grp_2', name: 'two', memberUserIds: ['usr_2'] });
      expect((await state.groups.find(a, 'member', 'usr_2')).map((g) => g.id)).toEqual(['grp_1', 'grp_2']);
      expect(await state.groups.find(b, 'member', 'usr_2')).toEqual([]);
      await state.groups.put(a, 'grp_1', { id: 'grp_1', name: 'one', memberUserIds: ['usr_3'] });
      expect((await state.groups.find(a, 'member', 'usr_2')).map((g) => g.id)).toEqual(['grp_2']);
      expect((await state.groups.find(a, 'member', 'usr_3')).map((g) => g.id)).toEqual(['grp_1']);
      expect((await state.groups.list(a)).map((g) => g.id)).toEqual(['grp_1', 'grp_2']);
      await state.groups.delete(a, 'grp_1');
      expect(await state.groups.find(a, 'member', 'usr_3')).toEqual([]);
    });

    it('keeps a unique key once per company: Duplicate, nothing stored; another company may hold it; a record may be put again', async () => {
      await state.users.put(a, 'usr_1', user('usr_1', 'Jane@example.org'));
      await expect(state.users.put(a, 'usr_2', user('usr_2', 'jane@EXAMPLE.org'))).rejects.toBeInstanceOf(Duplicate);
      expect(await state.users.get(a, 'usr_2')).toBeUndefined();
      expect(await state.users.count(a)).toBe(1);
      await state.users.put(b, 'usr_3', user('usr_3', 'jane@example.org'));
      await state.users.put(a, 'usr_1', { ...user('usr_1', 'jane@example.org'), emailVerified: true });
      expect((await state.users.get(a, 'usr_1'))!.emailVerified).toBe(true);
      await state.blacklist.put(a, 'blk_1', blk('blk_1', 'D1'));
      await expect(state.blacklist.put(a, 'blk_2', blk('blk_2', ' d1 ', { reason: 'another reason' }))).rejects.toBeInstanceOf(Duplicate);
      await state.blacklist.put(a, 'blk_3', blk('blk_3', 'D1', { birthday: '1990-01-01' }));
      // Freed by a delete.
      await state.users.delete(a, 'usr_1');
      await state.users.put(a, 'usr_4', user('usr_4', 'jane@example.org'));
    });

    it('refuses a record over the per-company cap with StoreFull and stores nothing; a delete makes room', async () => {
      await start({ maxRecordsPerCompany: 2 });
      await state.blacklist.put(a, 'blk_1', blk('blk_1', 'D1'));
      await state.blacklist.put(a, 'blk_2', blk('blk_2', 'D2'));
      await expect(state.blacklist.put(a, 'blk_3', blk('blk_3', 'D3'))).rejects.toBe(StoreFull.instance);
      expect(await state.blacklist.count(a)).toBe(2);
      expect(await state.blacklist.get(a, 'blk_3')).toBeUndefined();
      await state.blacklist.put(a, 'blk_2', blk('blk_2', 'D2', { notes: 'replacing is not adding' }));
      await state.blacklist.put(b, 'blk_4', blk('blk_4', 'D4'));
      await state.blacklist.delete(a, 'blk_1');
      await state.blacklist.put(a, 'blk_3', blk('blk_3', 'D3'));
    });

    it('charges every collection of a company to one byte budget; a delete or a reset refunds it', async () => {
      await start({ maxBytesPerCompany: 2_000 });
      const file = (id: string, size: number): Attachment => ({ id, sessionId: 'sess_1', stepKey: 's', questionKey: 'q', contentType: 'image/png', bytes: new Uint8Array(size).fill(7), uploadedAt: '2026-01-01T00:00:00.000Z' });
      await state.files.put(a, 'file_1', file('file_1', 1_000));
      await expect(state.files.put(a, 'file_2', file('file_2', 1_000))).rejects.toBe(StoreFull.instance);
      await expect(state.blacklist.put(a, 'blk_1', blk('blk_1', 'D'.repeat(1_000)))).rejects.toBe(StoreFull.instance);
      await state.files.put(b, 'file_3', file('file_3', 1_000));
      const stored = (await state.files.get(a, 'file_1'))!;
      expect(stored.bytes).toBeInstanceOf(Uint8Array);
      expect([...stored.bytes]).toEqual([...file('file_1', 1_000).bytes]);
      expect((await state.files.find(a, 'session', 'sess_1')).map((f) => f.id)).toEqual(['file_1']);
      await state.files.delete(a, 'file_1');
      await state.files.put(a, 'file_2', file('file_2', 1_000));
      await state.clear(a);
      await state.files.put(a, 'file_4', file('file_4', 1_000));
    });

    it('keeps any string as sent, NUL and control characters included, in records, keys and IDs', async () => {
      const odd = 'a\u0000b\u0001c\\u0000d';
      const record = blk('blk_1', odd, { notes: odd, firstName: 'Zoë', lastName: odd });
      await state.blacklist.put(a, 'blk_1', record);
      expect(await state.blacklist.get(a, 'blk_1')).toEqual(record);
      expect((await state.blacklist.find(a, 'match', `doc:${odd.toLowerCase()}`)).map((r) => r.id)).toEqual(['blk_1']);
      expect(await state.blacklist.find(a, 'match', 'doc:a\u0001\u0002b')).toEqual([]);
      expect(await state.blacklist.get(a, 'blk\u0000')).toBeUndefined();
      expect(await state.blacklist.ownerOf('\u0000')).toBeUndefined();
      expect(await state.blacklist.delete(a, '\u0000')).toBe(false);
    });

    it('clears one company, or everyone', async () => {
      await state.users.put(a, 'usr_1', user('usr_1', 'x@example.org'));
      await state.users.put(b, 'usr_2', user('usr_2', 'x@example.org'));
      await state.clear(a);
      expect(await state.users.list(a)).toEqual([]);
      expect(await state.users.count(a)).toBe(0);
      expect(await state.users.find(a, 'email', 'x@example.org')).toEqual([]);
      expect(await state.users.ownerOf('usr_1')).toBeUndefined();
      expect(await state.users.count(b)).toBe(1);
      await state.users.put(a, 'usr_1', user('usr_1', 'x@example.org'));
      await state.clear();
      expect(await state.users.count(a)).toBe(0);
      expect(await state.users.count(b)).toBe(0);
    });

    it("serialises a company's transactions: of 20 parallel check-then-write transactions for one e-mail, one writes", async () => {
      const attempt = (i: number) =>
        state.transaction(a, async (tx) => {
          if ((await tx.users.find(a, 'email', 'race@example.org')).length) return 'exists';
          // Time for every other transaction to reach its check, were they not serialised.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await tx.users.put(a, `usr_${i}`, user(`usr_${i}`, 'race@example.org'));
          return 'added';
        });
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i)));
      expect(outcomes.filter((o) => o === 'added')).toHaveLength(1);
      expect(await state.users.count(a)).toBe(1);
      // Another company does not wait for this one.
      expect(await state.transaction(b, async (tx) => tx.users.count(b))).toBe(0);
    });
  });
}
