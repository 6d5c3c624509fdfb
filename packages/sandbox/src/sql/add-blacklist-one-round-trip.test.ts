// add-blacklist-record on PostgreSQL runs outside its company's transaction (handlers/index.ts
// singleWriteOperations): its one put takes the company's lock itself, so a group of such requests sends
// the lock, its one statement and its COMMIT in one round trip (group-commit.ts `commitAhead`), and the
// answers stay those of one request after another (a duplicate is already-exists, the others added).
import { afterEach, expect, inject, it } from 'vitest';
import { post } from '../hostile.test-helper.js';
import { keyA, startTestSandbox } from '../sandbox.test-helper.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';
import { recordingDatabase } from './recording-database.test-helper.js';

const cleanUps: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

it('sends a group of add-blacklist-record calls in one round trip, COMMIT before the answers, and answers a duplicate already-exists', async () => {
  const db = await openPostgres(await createTestDatabase(inject('postgresUrl')));
  cleanUps.push(() => db.close());
  const { database, events } = recordingDatabase(db, (text) => (/^select pg_advisory_xact_lock/.test(text) ? 'lock' : /insert into blacklist_records /.test(text) ? 'write' : undefined));
  const t = await startTestSandbox({ database });
  cleanUps.push(() => t.close());
  events.length = 0;
  const add = (documentNumber: string) => post(t.url, '/add-blacklist-record', { companyKey: keyA, query: { reason: 'test', documentNumber } });
  const answers = await Promise.all(['D-1', 'D-2', 'D-3', 'D-4'].map(add));
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  expect(events).toContain('sent commit');
  expect(events).not.toContain('sent savepoint');
  expect(events.indexOf('sent commit')).toBeLessThan(events.indexOf('answered write'));
  // A duplicate among new ones: the group's statement declines, and each is answered as alone.
  const again = await Promise.all(['D-5', 'd-1', 'D-6'].map(add));
  expect(again.map((answer) => answer.json)).toEqual([{ result: expect.any(String) }, { argumentError: 'already-exists' }, { result: expect.any(String) }]);
  const list = await post(t.url, '/list-blacklist-records', { companyKey: keyA, query: {} });
  expect((list.json as { result: { total: number } }).result.total).toBe(6);
}, 60_000);
