// Closing the PGlite mirror (mirror.ts, `close`) as the sandbox does when it stops: what was acknowledged
// is on disk already, and a commit in flight, with what queued behind it, is finished and answered before
// the close resolves, so that the database may then be closed.
import { afterEach, expect, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import type { User } from '../state.js';
import type { Database } from './database.js';
import { mirroredState } from './mirror.js';
import { heldCommits } from './held-commits.test-helper.js';
import { openPglite } from './pglite.js';

const a = 'ck_test_close_a_0000';
const user = (id: string): User => ({ id, username: `${id}@example.org`, email: `${id}@example.org`, roles: ['call_center_operator'], emailVerified: false });

const opened: Database[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

it('finishes the commit in flight and the writes queued behind it before the close resolves', async () => {
  const db = await openPglite();
  opened.push(db);
  const { database: held, hold } = heldCommits(db);
  const state = mirroredState(held, defaultLimits);
  await state.users.count(a); // loaded
  const release = hold();
  const answered: string[] = [];
  const writes = ['usr_1', 'usr_2', 'usr_3'].map((id) => state.users.put(a, id, user(id)).then(() => void answered.push(id)));
  await new Promise((resolve) => setTimeout(resolve, 20));
  let closed = false;
  const closing = state.close().then(() => (closed = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(closed).toBe(false);
  release();
  await closing;
  expect(answered.sort()).toEqual(['usr_1', 'usr_2', 'usr_3']);
  await Promise.all(writes);
  expect((await db.query<{ id: string }>('select id from users order by seq')).map((row) => row.id)).toEqual(['usr_1', 'usr_2', 'usr_3']);
}, 60_000);
