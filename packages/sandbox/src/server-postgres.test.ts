// A sandbox on PostgreSQL, where several instances share one database: the schema is migrated before the
// first request reaches the rate limit (which counts in the database), each instance reads the records
// another wrote (no memory mirror: that is PGlite's alone), and one address is counted once for all.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { post } from './hostile.test-helper.js';
import { codeOf, keyA, startTestSandbox } from './sandbox.test-helper.js';
import { createTestDatabase } from './sql/pg-cluster.test-helper.js';
import { openPostgres } from './sql/postgres.js';

const cleanUps: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

async function startOn(url: string) {
  const database = await openPostgres(url);
  cleanUps.push(() => database.close());
  const t = await startTestSandbox({ database, rateLimit: 5 });
  cleanUps.push(() => t.close());
  return t;
}

describe('two sandboxes on one fresh PostgreSQL database', () => {
  it('answer the first request, read each other\'s records and count one address together', async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const first = await startOn(url);
    const second = await startOn(url);
    // The first request of all reaches the shared rate limit, whose table the migrations make.
    const { id } = await first.a.begin({});
    expect(await codeOf(second.a.listSessionActivities({ sessionId: id }))).toBe('resolved');
    // Written after the second has read the database once: it reads the database, not a copy made then.
    const { id: later } = await first.a.begin({});
    expect(await codeOf(second.a.listSessionActivities({ sessionId: later }))).toBe('resolved');
    const status = async (t: typeof first) => (await post(t.url, '/list-groups', { companyKey: keyA })).status;
    // A limit of 5 a minute: the 5th request, on the first, passes; the 6th, on the second, is the one too many.
    expect(await status(first)).toBe(200);
    expect(await status(second)).toBe(529);
    expect(await status(first)).toBe(529);
  }, 60_000); // a database of its own and its migrations, more under load
});
