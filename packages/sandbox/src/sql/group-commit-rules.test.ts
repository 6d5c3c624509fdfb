// The group commit's rules when the database fails or a group fills (group-commit.ts), on a database that
// records its statements and fails where a test says: no PostgreSQL needed for what the group does with
// an error. What it does with PostgreSQL's own answers is in group-commit.test.ts and group-batch.test.ts.
import { describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { groupCommit } from './group-commit.js';
import { fakeDatabase } from './scripted-database.test-helper.js';

const settle = async (promises: Promise<unknown>[]) => (await Promise.allSettled(promises)).map((r) => (r.status === 'fulfilled' ? r.value : `error: ${(r.reason as Error).message}`));
const lock = async (tx: Database, company: string) => void (await tx.query(`lock ${company}`));
const write = (text: string, value: unknown) => async (tx: Database) => (await tx.query(text), value);

describe('group commit: groups', () => {
  it('takes at most maxGroup transactions of a company in one database transaction, in the order asked', async () => {
    const { db, statements } = fakeDatabase();
    const sizes: number[] = [];
    const run = groupCommit(db, lock, { maxGroup: 2, onCommit: (size) => sizes.push(size) });
    const answers = await settle([1, 2, 3, 4, 5].map((n) => run('c', write(`w${n}`, n))));
    expect(answers).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
    expect(statements.filter((s) => /^(begin|commit|w\d)$/.test(s))).toEqual(['begin', 'w1', 'w2', 'commit', 'begin', 'w3', 'w4', 'commit', 'begin', 'w5', 'commit']);
    // The company's lock once a group.
    expect(statements.filter((s) => s === 'lock c')).toHaveLength(3);
  });

  it('runs each company in groups of its own', async () => {
    const { db, statements } = fakeDatabase();
    const run = groupCommit(db, lock);
    expect(await settle([run('a', write('a1', 'a1')), run('b', write('b1', 'b1')), run('a', write('a2', 'a2'))])).toEqual(['a1', 'b1', 'a2']);
    // Asked at once: a's two in one group, b's beside it.
    expect(statements.filter((s) => s.startsWith('lock'))).toEqual(['lock a', 'lock b']);
    // A company whose groups are done starts afresh.
    expect(await run('a', write('a3', 'a3'))).toBe('a3');
  });

  it('answers a transaction that refuses with its own error, and keeps the others of its group', async () => {
    const { db } = fakeDatabase();
    const sizes: number[] = [];
    const run = groupCommit(db, lock, { onCommit: (size) => sizes.push(size) });
    const refusing = async (tx: Database) => {
      await tx.query('w2');
      throw new Error('refused by the handler');
    };
    expect(await settle([run('c', write('w1', 1)), run('c', refusing), run('c', write('w3', 3))])).toEqual([1, 'error: refused by the handler', 3]);
    expect(sizes).toEqual([3]);
  });
});

describe('group commit: failures of the database', () => {
  it('answers every transaction of a group with the commit’s error when the commit fails, a refused one with its own', async () => {
    const { db } = fakeDatabase({ failCommit: true });
    const sizes: number[] = [];
    const run = groupCommit(db, lock, { onCommit: (size) => sizes.push(size) });
    const refusing = async () => {
      throw new Error('own refusal');
    };
    expect(await settle([run('c', write('w1', 1)), run('c', write('w2', 2)), run('c', refusing)])).toEqual(['error: commit failed', 'error: commit failed', 'error: own refusal']);
    expect(sizes).toEqual([]);
  });

  it('fails the group and those waiting behind it when the company’s lock cannot be taken, and runs the next ones asked', async () => {
    let down = true;
    const { db } = fakeDatabase({ failQuery: (text) => down && text.startsWith('lock') });
    const run = groupCommit(db, lock);
    const answers = await settle([run('c', write('w1', 1)), run('c', write('w2', 2))]);
    expect(answers).toEqual(['error: refused: lock c', 'error: refused: lock c']);
    down = false;
    expect(await run('c', write('w3', 3))).toBe(3);
  });

  it('fails every transaction waiting when the database cannot begin one, rather than trying again without end, and runs the next ones asked', async () => {
    let down = true;
    const { db, statements } = fakeDatabase({ failBegin: () => down });
    const run = groupCommit(db, lock);
    expect(await settle([run('c', write('w1', 1)), run('c', write('w2', 2)), run('c', write('w3', 3))])).toEqual([
      'error: database unreachable',
      'error: database unreachable',
      'error: database unreachable',
    ]);
    expect(statements).toEqual([]);
    down = false;
    expect(await run('c', write('w4', 4))).toBe(4);
  });

  it('runs the transactions waiting behind a group whose lock failed in the next group', async () => {
    let locks = 0;
    const { db } = fakeDatabase({ failQuery: (text) => text.startsWith('lock') && ++locks === 1 });
    const run = groupCommit(db, lock, { maxGroup: 1 });
    expect(await settle([run('c', write('w1', 1)), run('c', write('w2', 2))])).toEqual(['error: refused: lock c', 2]);
  });

  it('answers a group only once its flush to disk is done, after the groups before it, and fails it if the flush fails', async () => {
    const { db, flushes } = fakeDatabase({ flushLater: true });
    const run = groupCommit(db, lock, { maxGroup: 1 });
    const answered: string[] = [];
    const ask = (name: string) =>
      run('c', write(name, name)).then(
        (value) => void answered.push(`${value as string} done`),
        (error: Error) => void answered.push(`${name} ${error.message}`)
      );
    const all = Promise.all([ask('g1'), ask('g2'), ask('g3')]);
    // The next groups ran while the first flush waits.
    while (flushes.length < 3) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(answered).toEqual([]);
    flushes[1]!.resolve();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(answered).toEqual([]);
    flushes[2]!.reject(new Error('flush failed'));
    // A failed flush waits for the groups before it too: its error is not answered ahead of them.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(answered).toEqual([]);
    flushes[0]!.resolve();
    await all;
    expect(answered).toEqual(['g1 done', 'g2 done', 'g3 flush failed']);
  });

  it('answers a group asked after the first one was answered still after the groups before it', async () => {
    const { db, flushes } = fakeDatabase({ flushLater: true });
    const run = groupCommit(db, lock, { maxGroup: 1 });
    const answered: string[] = [];
    const ask = (name: string) => run('c', write(name, name)).then((value) => void answered.push(value as string));
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    };
    const first = [ask('g1'), ask('g2'), ask('g3')];
    while (flushes.length < 3) await turns(1);
    flushes[0]!.resolve();
    await first[0];
    const fourth = ask('g4');
    while (flushes.length < 4) await turns(1);
    flushes[3]!.resolve();
    await turns(5);
    expect(answered).toEqual(['g1']);
    flushes[1]!.resolve();
    flushes[2]!.resolve();
    await Promise.all([...first, fourth]);
    expect(answered).toEqual(['g1', 'g2', 'g3', 'g4']);
  });
});
