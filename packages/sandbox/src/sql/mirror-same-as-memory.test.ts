// The PGlite mirror (mirror.ts) answers as the memory store does: the same transactions, run on both, read
// the same records, counts, pages, index matches and owners inside each transaction (its own writes on
// top), refuse the same writes (Duplicate, StoreFull by count and by bytes), and leave the same records,
// also when a transaction builds on writes still being committed and after the mirror is loaded again
// from the database (a restart). A seeded sequence of small transactions, tight limits so that the caps
// and the byte budget are reached, and a few IDs and e-mails so that records are replaced, deleted, put
// again and collide.
import { afterEach, expect, it } from 'vitest';
import { StoreFull } from '../errors.js';
import { defaultLimits, type Limits } from '../limits.js';
import { memoryState, type Attachment, type Collections, type Group, type State, type User } from '../state.js';
import { Duplicate } from '../store.js';
import type { Database } from './database.js';
import { mirroredState } from './mirror.js';
import { heldCommits } from './held-commits.test-helper.js';
import { openPglite } from './pglite.js';

const a = 'ck_test_same_a_0000';
const b = 'ck_test_same_b_0000';
const limits: Limits = { ...defaultLimits, maxRecordsPerCompany: 3, maxBytesPerCompany: 1_000 };

const opened: Database[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

/** A small seeded generator (mulberry32): the same sequence every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const emails = ['e0@example.org', 'E0@example.org', 'e1@example.org', 'e2@example.org'];
const user = (id: string, email: string, verified = false): User => ({ id, username: email, email, roles: ['call_center_operator'], emailVerified: verified });
const file = (id: string, session: string, size: number): Attachment => ({ id, sessionId: session, stepKey: 's', questionKey: 'q', contentType: 'image/png', bytes: new Uint8Array(size).fill(size % 251), uploadedAt: '2026-01-01T00:00:00.000Z' });

/** Everything a handler could read of company `c` through `view`, as plain values. */
async function snapshot(view: Collections, c: string, p: string) {
  const ids = (kind: string, n: number) => Array.from({ length: n }, (_, i) => `${kind}_${p}${i}`);
  const out: unknown[] = [];
  out.push(await view.users.list(c), await view.users.page(c, 1, 2), await view.users.page(c, 0, 1), await view.users.count(c));
  for (const id of ids('usr', 5)) out.push(id, await view.users.get(c, id), await view.users.ownerOf(id));
  for (const email of emails) out.push(email, await view.users.find(c, 'email', email.toLowerCase()));
  out.push(await view.groups.list(c), await view.groups.page(c, 1, 1), await view.groups.count(c));
  // Sorted: a record replaced in its place so that it gains a key is found in list order by the SQL stores
  // and by the mirror inside a transaction, but after the records indexed before it by the memory store.
  const sorted = <T extends { id?: string }>(records: T[]) => records.sort((x, y) => (x.id! < y.id! ? -1 : 1));
  for (const member of ids('usr', 4)) out.push(member, sorted(await view.groups.find(c, 'member', member)));
  for (const id of ids('grp', 3)) out.push(id, await view.groups.get(c, id));
  out.push((await view.files.list(c)).map((f) => [f.id, f.sessionId, f.bytes.length]), await view.files.count(c));
  for (const session of ['sess_1', 'sess_2']) out.push(session, sorted(await view.files.find(c, 'session', session)).map((f) => f.id));
  for (const id of ids('file', 2)) out.push(id, (await view.files.get(c, id))?.bytes.length);
  return JSON.parse(JSON.stringify(out, (_, value) => (value === undefined ? '(none)' : value)));
}

type Op = (tx: Collections) => Promise<unknown>;
/** One random write of company `c` (IDs prefixed `p`, so that companies' IDs differ), its outcome as text. */
function randomOp(next: () => number, c: string, p: string): Op {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const id = (kind: string, n: number) => `${kind}_${p}${Math.floor(next() * n)}`;
  const outcome = async (what: string, write: () => Promise<unknown>) => {
    try {
      return `${what}: ${String(await write())}`;
    } catch (error) {
      if (error instanceof Duplicate) return `${what}: Duplicate ${error.index}`;
      if (error === StoreFull.instance) return `${what}: StoreFull`;
      throw error;
    }
  };
  const kind = next();
  if (kind < 0.35) {
    const userId = id('usr', 5);
    const record = user(userId, pick(emails), next() < 0.5);
    return (tx) => outcome(`put ${userId} ${record.email} ${record.emailVerified}`, () => tx.users.put(c, userId, record));
  }
  if (kind < 0.5) {
    const userId = id('usr', 5);
    return (tx) => outcome(`delete ${userId}`, () => tx.users.delete(c, userId));
  }
  if (kind < 0.7) {
    const groupId = id('grp', 3);
    const members = [id('usr', 4), id('usr', 4)];
    const record: Group = { id: groupId, name: pick(['one', 'a longer group name than the others']), memberUserIds: members };
    return (tx) => outcome(`put ${groupId} ${record.memberUserIds.join(' ')} ${record.name.length}`, () => tx.groups.put(c, groupId, record));
  }
  if (kind < 0.8) {
    const groupId = id('grp', 3);
    return (tx) => outcome(`delete ${groupId}`, () => tx.groups.delete(c, groupId));
  }
  if (kind < 0.92) {
    const fileId = id('file', 2);
    const record = file(fileId, pick(['sess_1', 'sess_2']), pick([100, 450]));
    return (tx) => outcome(`put ${fileId} ${record.sessionId} ${record.bytes.length}`, () => tx.files.put(c, fileId, record));
  }
  const fileId = id('file', 2);
  return (tx) => outcome(`delete ${fileId}`, () => tx.files.delete(c, fileId));
}

/** A transaction's ops, each followed by what the transaction then reads. */
const transactionOf = (ops: Op[], c: string, p: string) => async (tx: Collections) => {
  const seen: unknown[] = [await snapshot(tx, c, p)];
  for (const op of ops) seen.push(await op(tx), await snapshot(tx, c, p));
  return seen;
};

/**
 * Runs `rounds` rounds of transactions of the two companies on `state`: in each round the transactions
 * are started together and answered together, so that each builds on the unconfirmed writes of the ones
 * before it; `hold` (mirror only) keeps the round's commits from landing until every transaction of the
 * round has run. Returns what every transaction read and what was stored after each round.
 */
type Round = () => { answers: Promise<unknown[]>; worked: Promise<unknown> };
async function play(state: State, seed: number, rounds: number, hold: (round: Round) => Promise<unknown[]>) {
  const next = random(seed);
  const log: unknown[] = [];
  for (let r = 0; r < rounds; r++) {
    const plan: { c: string; p: string; ops: Op[] }[] = [];
    const size = 1 + Math.floor(next() * 3);
    for (let t = 0; t < size; t++) {
      const [c, p] = next() < 0.8 ? [a, 'a'] : [b, 'b'];
      plan.push({ c, p, ops: Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomOp(next, c, p)) });
    }
    const clearFirst = next() < 0.06;
    if (clearFirst) await state.clear(a);
    log.push(
      await hold(() => {
        const works: Promise<void>[] = [];
        const answers = Promise.all(
          plan.map(({ c, p, ops }) => {
            let worked!: () => void;
            works.push(new Promise<void>((resolve) => (worked = resolve)));
            return state.transaction(c, async (tx) => {
              try {
                return await transactionOf(ops, c, p)(tx);
              } finally {
                worked();
              }
            });
          }),
        );
        return { answers, worked: Promise.all(works) };
      }),
    );
    log.push(await snapshot(state, a, 'a'), await snapshot(state, b, 'b'));
  }
  return log;
}

/** PGlite as the mirror sees it, with `hold` running a round with every commit held until the round's transactions have all done their work. */
function gated(db: Database) {
  const { database, hold: holdCommits } = heldCommits(db);
  const hold = async (round: Round) => {
    const release = holdCommits();
    const { answers, worked } = round();
    await worked;
    release();
    return answers;
  };
  return { database, hold };
}

it('reads, refuses and keeps what the memory store does, inside transactions, on unconfirmed writes and after a reload', async () => {
  const db = await openPglite();
  opened.push(db);
  const { database, hold } = gated(db);
  const memory = memoryState(limits);
  const mirror = mirroredState(database, limits);
  const direct = (round: Round) => round().answers;
  await mirror.users.count(a); // loaded (its statements are not held)

  for (const seed of [5]) {
    const expected = await play(memory, seed, 25, direct);
    const got = await play(mirror, seed, 25, hold);
    // Entry by entry: a failure names the first round that differs.
    for (const [i, entry] of expected.entries()) expect(got[i], `seed ${seed}, entry ${i} (${Math.floor(i / 3)}th round)`).toEqual(entry);
  }
  await mirror.close();

  // A restart: the mirror loaded again from what PGlite holds reads the same, and goes on the same (the
  // counts and the byte budget loaded too).
  const reloaded = mirroredState(database, limits);
  expect(await snapshot(reloaded, a, 'a')).toEqual(await snapshot(memory, a, 'a'));
  expect(await snapshot(reloaded, b, 'b')).toEqual(await snapshot(memory, b, 'b'));
  expect(await play(reloaded, 99, 8, direct)).toEqual(await play(memory, 99, 8, direct));
  await reloaded.close();
}, 120_000);
