// A group commit (group-commit.ts) whose rollback to a transaction's savepoint fails (the connection
// failed there, say): the group ends without its COMMIT, so nothing of the refused transaction is
// committed; that transaction gets its own answer, and the transactions waiting behind it run in a new
// group. On a database that records statements and refuses the first rollback to a savepoint: the
// group's own rule, not PostgreSQL's turning a COMMIT after a failed statement into a ROLLBACK.
import { expect, it } from 'vitest';
import { groupCommit } from './group-commit.js';
import { fakeDatabase } from './scripted-database.test-helper.js';

/** Refuses the first rollback to a savepoint, as a connection lost there would. */
function refusingFirstRollback() {
  let refused = false;
  return fakeDatabase({ failQuery: (text) => text === 'rollback to savepoint g' && !refused && (refused = true) });
}

it('commits nothing of a group whose rollback to a savepoint failed, and runs the transactions waiting behind it in the next group', async () => {
  const { db, statements } = refusingFirstRollback();
  const groups: number[] = [];
  const run = groupCommit(db, async (tx, company) => void (await tx.query(`lock ${company}`)), { onCommit: (size) => groups.push(size) });
  const outcomes = await Promise.allSettled([
    run('c', async (tx) => {
      await tx.query('w1');
      throw new Error('refused by its handler');
    }),
    run('c', async (tx) => (await tx.query('w2'), 2)),
    run('c', async (tx) => (await tx.query('w3'), 3)),
  ]);
  expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual(['refused by its handler', 2, 3]);
  expect(statements.filter((s) => /^(begin|commit|w\d)$/.test(s))).toEqual(['begin', 'w1', 'begin', 'w2', 'w3', 'commit']);
  expect(groups).toEqual([2]);
});
