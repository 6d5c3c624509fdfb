// The writes the PGlite mirror makes after checking caps, budget and unique keys itself (store.ts
// `putChecked`, `putBatch`, `usageTally`, `unsafe`): each stores the records, their index keys and the
// company's usage so that the SQL store reads them back as if `put` had written them (the records, a find
// by key, the count, the byte budget), refuses a unique key another record holds, and gives back the IDs
// as they were sent when the mirror loads the tables again. On PostgreSQL (a pool on the test cluster opens
// in milliseconds, a PGlite in about a second), which runs the same statements as the mirror's PGlite.
import { expect, it } from 'vitest';
import { StoreFull } from '../errors.js';
import { defaultLimits } from '../limits.js';
import { collectionSpecs, type User } from '../state.js';
import { Duplicate, type CollectionOptions } from '../store.js';
import type { Database } from './database.js';
import { filePools } from './file-pools.test-helper.js';
import { putBatch, putChecked, sqlState, unsafe, usageTally } from './store.js';
import { blk, user } from '../sample-records.test-helper.js';

const a = 'ck_test_direct_a_0000';
const b = 'ck_test_direct_b_0000';
const specs = collectionSpecs(defaultLimits);
const size = (record: unknown) => specs.users.sizeOf!(record as User);

const pool = filePools();
let shared: Promise<Database> | undefined;
async function opened() {
  const db = await (shared ??= pool());
  const state = sqlState(db, defaultLimits);
  await state.clear();
  return { db, state };
}

it('putChecked without a tally stores the record, its keys and its usage; put again it counts once', async () => {
  const { db, state } = await opened();
  await db.transaction((tx) => putChecked(tx, 'users', specs.users, a, 'usr_1', user('usr_1', 'One@example.org')));
  await db.transaction((tx) => putChecked(tx, 'users', specs.users, a, 'usr_1', user('usr_1', 'uno@example.org')));
  expect(await state.users.get(a, 'usr_1')).toEqual(user('usr_1', 'uno@example.org'));
  expect((await state.users.find(a, 'email', 'uno@example.org')).map((u) => u.id)).toEqual(['usr_1']);
  expect(await state.users.find(a, 'email', 'one@example.org')).toEqual([]);
  expect(await state.users.count(a)).toBe(1);
}, 60_000);

it('putChecked with a tally writes the usage only when the tally is written, summed per company', async () => {
  const { db, state } = await opened();
  const tally = usageTally();
  await db.transaction(async (tx) => {
    await putChecked(tx, 'users', specs.users, a, 'usr_1', user('usr_1', 'one@example.org'), tally);
    await putChecked(tx, 'users', specs.users, a, 'usr_2', user('usr_2', 'two@example.org'), tally);
    await putChecked(tx, 'users', specs.users, b, 'usr_3', user('usr_3', 'three@example.org'), tally);
  });
  expect([await state.users.count(a), await state.users.count(b)]).toEqual([0, 0]);
  await db.transaction((tx) => tally.write(tx));
  expect([await state.users.count(a), await state.users.count(b)]).toEqual([2, 1]);
  // Written once: a second write adds nothing.
  await db.transaction((tx) => tally.write(tx));
  expect(await state.users.count(a)).toBe(2);
  // The bytes were counted too: a budget of exactly what is stored refuses one byte more.
  const stored = size(user('usr_1', 'one@example.org')) + size(user('usr_2', 'two@example.org'));
  const tight = sqlState(db, { ...defaultLimits, maxBytesPerCompany: stored + size(user('usr_4', 'four@example.org')) - 1 });
  await expect(tight.users.put(a, 'usr_4', user('usr_4', 'four@example.org'))).rejects.toBeInstanceOf(StoreFull);
}, 60_000);

it('putChecked refuses a unique key another record of the company holds, naming the index', async () => {
  const { db, state } = await opened();
  await state.users.put(a, 'usr_1', user('usr_1', 'one@example.org'));
  await expect(db.transaction((tx) => putChecked(tx, 'users', specs.users, a, 'usr_2', user('usr_2', 'one@example.org')))).rejects.toEqual(new Duplicate('email'));
  await expect(db.transaction((tx) => putBatch(tx, 'users', specs.users as CollectionOptions<unknown>, [{ company: a, id: 'usr_3', record: user('usr_3', 'one@example.org') }], usageTally()))).rejects.toEqual(new Duplicate('email'));
  await expect(db.transaction((tx) => putBatch(tx, 'users', specs.users as CollectionOptions<unknown>, [{ company: a, id: 'usr_4', record: user('usr_4', 'one@example.org') }], usageTally(), { fresh: true }))).rejects.toEqual(new Duplicate('email'));
  expect(await state.users.count(a)).toBe(1);
}, 60_000);

it('passes on, as it is, a database error that is not a unique key taken', async () => {
  const { db } = await opened();
  const refused = Object.assign(new Error('refused by the database'), { code: '53100' });
  const failing: Database = { ...db, query: () => Promise.reject(refused) };
  const one = [{ company: a, id: 'usr_1', record: user('usr_1', 'one@example.org') }];
  await expect(putChecked(failing, 'users', specs.users, a, 'usr_1', one[0]!.record)).rejects.toBe(refused);
  await expect(putBatch(failing, 'users', specs.users as CollectionOptions<unknown>, one, usageTally())).rejects.toBe(refused);
  await expect(putBatch(failing, 'users', specs.users as CollectionOptions<unknown>, one, usageTally(), { fresh: true })).rejects.toBe(refused);
}, 60_000);

for (const fresh of [false, true]) {
  it(`putBatch${fresh ? ' (fresh)' : ''} stores each record with its keys, in order, and tallies each company's records and bytes`, async () => {
    const { db, state } = await opened();
    // Stored before: the batch puts it again (a fresh batch finds it there and writes it the other way).
    await state.blacklist.put(a, 'blk_0', blk('blk_0', 'OLD-0'));
    const batch = [
      { company: a, id: 'blk_1', record: blk('blk_1', 'D-1') },
      { company: b, id: 'blk_2', record: blk('blk_2', 'D-2') },
      { company: a, id: 'blk_0', record: blk('blk_0', 'NEW-0') },
      { company: a, id: 'blk_\u0000', record: blk('blk_\u0000', 'D-3') },
    ];
    const tally = usageTally();
    await db.transaction(async (tx) => {
      await putBatch(tx, 'blacklist', specs.blacklist as CollectionOptions<unknown>, batch, tally, { fresh });
      await tally.write(tx);
    });
    expect((await state.blacklist.list(a)).map((r) => [r.id, r.documentNumber])).toEqual([
      ['blk_0', 'NEW-0'],
      ['blk_1', 'D-1'],
      ['blk_\u0000', 'D-3'],
    ]);
    expect((await state.blacklist.list(b)).map((r) => r.id)).toEqual(['blk_2']);
    expect([await state.blacklist.count(a), await state.blacklist.count(b)]).toEqual([3, 1]);
    expect((await state.blacklist.find(a, 'match', 'doc:new-0')).map((r) => r.id)).toEqual(['blk_0']);
    expect(await state.blacklist.find(a, 'match', 'doc:old-0')).toEqual([]);
    expect((await state.blacklist.find(a, 'match', 'doc:d-3')).map((r) => r.id)).toEqual(['blk_\u0000']);
    expect(await state.blacklist.ownerOf('blk_\u0000')).toBe(a);
  }, 60_000);
}

it('gives back the IDs as sent when the tables are read again (the mirror loading them)', async () => {
  const { db, state } = await opened();
  const ids = ['usr_plain', 'usr_\u0000nul', 'usr_\u0001one', 'usr_\u0001\u0002both', 'usr_\u0000\u0001\u0002'];
  for (const [i, id] of ids.entries()) await state.users.put(a, id, user(id, `u${i}@example.org`));
  const rows = await db.query<{ id: string }>('select id from users order by seq');
  expect(rows.map((row) => unsafe(row.id))).toEqual(ids);
}, 60_000);
