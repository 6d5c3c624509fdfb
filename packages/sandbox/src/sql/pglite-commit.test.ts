// The mirror's commit of new records as SQL text (pglite-commit.ts): what it writes reads back the same
// after a reopen, whatever the characters, and the company's usage row adds up to its records.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { BlacklistRecord, Group, User } from '../state.js';
import type { Database } from './database.js';
import { mirroredState } from './mirror.js';
import { openPglite } from './pglite.js';
import { sqlState } from './store.js';

const a = "ck_test_commit_a_'0000";
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Quotes, backslashes, a dollar sign, U+0000 and U+0001, a lone surrogate, and text outside the BMP.
const odd = ["it's", 'back\\slash \\\' and "double"', '$1 $$ ;--', 'nul\u0000and\u0001one', 'lone \ud800 surrogate', 'Ünïcödé 🦊'];

/**
 * A new PGlite directory, and the database as the mirror sees it, counting what reaches PGlite: each group
 * commit is one message of statements (one transaction) and nothing else: a transaction would be the
 * statement-by-statement retry after a failed message, a statement with parameters its statements.
 */
async function openCounted() {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-pglite-commit-'));
  dirs.push(dir);
  const db = await openPglite(dir);
  const counts = { messages: 0, others: 0 };
  const counted: Database = {
    ...db,
    transaction: (work) => (counts.others++, db.transaction(work)),
    query: (text, params) => (params?.length ? counts.others++ : counts.messages++, db.query(text, params)),
  };
  return { dir, db, counted, counts };
}

it('writes a group of new records with any characters, reads them back the same after a reopen, and keeps the usage exact', async () => {
  const opened = await openCounted();
  const { dir, counted, counts } = opened;
  let db = opened.db;
  const groups: number[] = [];
  let state = mirroredState(counted, defaultLimits, { onCommit: (size) => groups.push(size) });
  await state.users.count(a); // loaded
  // The statements are prepared at the first commit: counted from the second.
  await Promise.all([
    state.users.put(a, 'usr_first', { id: 'usr_first', username: 'first@example.org', email: 'first@example.org', roles: ['call_center_operator'], emailVerified: false }),
    state.blacklist.put(a, 'bl_first', { id: 'bl_first', reason: 'first', documentNumber: 'D-first' } as BlacklistRecord),
  ]);
  counts.messages = 0;
  counts.others = 0;
  groups.length = 0;
  const users = odd.map((text, i): User => ({ id: `usr_${i}_${text}`, username: `${text}@example.org`, email: `${text}@example.org`, roles: ['call_center_operator'], emailVerified: false }));
  const records = odd.map((text, i): BlacklistRecord => ({ id: `bl_${i}_${text}`, reason: text, documentNumber: `D-${text}` }) as BlacklistRecord);
  // Written at once: they finish during one commit and go together in the next.
  await Promise.all([...users.map((u) => state.users.put(a, u.id, u)), ...records.map((r) => state.blacklist.put(a, r.id!, r))]);
  await state.close();
  expect(groups.reduce((sum, size) => sum + size, 0)).toBe(2 * odd.length);
  expect(counts.messages).toBe(groups.length);
  expect(counts.others).toBe(0);
  await db.close();

  db = await openPglite(dir);
  try {
    state = mirroredState(db, defaultLimits);
    expect((await state.users.list(a)).slice(1)).toEqual(users);
    expect((await state.blacklist.list(a)).slice(1)).toEqual(records);
    // The index keys are on disk too: the SQL store (no mirror) finds each record by them (e-mail keys are lower case).
    const direct = sqlState(db, defaultLimits);
    for (const u of users) expect(await direct.users.find(a, 'email', u.email!.toLowerCase())).toEqual([u]);
    const usage = await db.query<{ collection: string; records: number; bytes: number }>(`select collection, records, bytes from company_usage where company = $1 order by collection`, [a]);
    const stored = await db.query<{ collection: string; records: number; bytes: number }>(
      `select 'blacklist' as collection, count(*) as records, sum(size) as bytes from blacklist_records where company = $1
       union all select 'users', count(*), sum(size) from users where company = $1 order by collection`,
      [a],
    );
    expect(usage.map((row) => [row.collection, Number(row.records), Number(row.bytes)])).toEqual(stored.map((row) => [row.collection, Number(row.records), Number(row.bytes)]));
    expect(usage.map((row) => Number(row.records))).toEqual([odd.length + 1, odd.length + 1]);
  } finally {
    await db.close();
  }
}, 120_000);

it('writes a record that lists a key twice in the one message, its key once, and reads it back whole', async () => {
  const opened = await openCounted();
  const { dir, counted, counts } = opened;
  let db = opened.db;
  let state = mirroredState(counted, defaultLimits);
  await state.groups.count(a); // loaded
  await state.groups.put(a, 'grp_first', { id: 'grp_first', name: 'first', memberUserIds: [] } as Group);
  counts.messages = 0;
  counts.others = 0;
  // The member index gives usr_1 twice: a key row is (company, index, key, ID), so it is one row.
  const group = { id: 'grp_twice', name: 'twice', memberUserIds: ['usr_1', 'usr_2', 'usr_1'] } as Group;
  await state.groups.put(a, group.id!, group);
  await state.close();
  expect(counts).toEqual({ messages: 1, others: 0 });
  const keys = await db.query<{ key: string }>(`select key from user_groups_keys where id = 'grp_twice' and name = 'member' order by key`);
  expect(keys.map((row) => row.key)).toEqual(['usr_1', 'usr_2']);
  await db.close();

  db = await openPglite(dir);
  try {
    state = mirroredState(db, defaultLimits);
    expect(await state.groups.get(a, 'grp_twice')).toEqual(group);
    expect((await sqlState(db, defaultLimits).groups.find(a, 'member', 'usr_1')).map((g) => g.id)).toEqual(['grp_twice']);
  } finally {
    await db.close();
  }
}, 120_000);
