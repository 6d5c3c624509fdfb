// A group commit's new records in one statement (store.ts `putMany`) when an index gives a record the
// same key twice (a group that lists a member twice): the group is still written by that one statement,
// not refused by PostgreSQL and written again one by one, and it is found by that member once.
import { expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { Group } from '../state.js';
import type { Database } from './database.js';
import { filePools } from './file-pools.test-helper.js';
import { sqlState } from './store.js';

const a = 'ck_test_keys_twice_0000';
const newPool = filePools();

it('writes a group of new records in one statement when one of them has a key twice', async () => {
  const db = await newPool();
  const statements: string[] = [];
  const counting: Database = {
    ...db,
    transactionWithSavepoints: (work, options) => db.transactionWithSavepoints!((tx) => work({ ...tx, query: (text, params) => (statements.push(text), tx.query(text, params)) }), options),
  };
  const state = sqlState(counting, defaultLimits);
  await state.clear();
  const groups: Group[] = [
    { id: 'grp_1', name: 'One', memberUserIds: ['usr_a'] },
    { id: 'grp_2', name: 'Twice', memberUserIds: ['usr_b', 'usr_c', 'usr_b'] },
    { id: 'grp_3', name: 'Three', memberUserIds: ['usr_b'] },
  ];
  await Promise.all(groups.map((group) => state.transaction(a, (tx) => tx.groups.put(a, group.id, group))));
  expect(statements.filter((text) => /insert into user_groups /.test(text))).toHaveLength(1);
  expect((await state.groups.list(a)).map((group) => group.id)).toEqual(['grp_1', 'grp_2', 'grp_3']);
  expect((await state.groups.find(a, 'member', 'usr_b')).map((group) => group.id)).toEqual(['grp_2', 'grp_3']);
  expect((await state.groups.get(a, 'grp_2'))?.memberUserIds).toEqual(['usr_b', 'usr_c', 'usr_b']);
}, 60_000);
