// Issue 15 on a database: the sandbox's callbacks wait in the outbox, so an event queued before the
// process stops is delivered after it starts again on the same data; and on PostgreSQL the rate limit is
// counted in the database, so sandboxes sharing it count one address together.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { companiesFrom, demoSessionConfigs } from '../companies.js';
import { demoCompanyA, receiveBodies } from '../callback-receiver.test-helper.js';
import { adminToken, keyA, startTestSandbox } from '../sandbox.test-helper.js';
import { createSandbox } from '../server.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

describe('callbacks on a PGlite data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-outbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers after a restart an event queued before the stop', async () => {
    const receiver = await receiveBodies<{ type: string; sessionId: string }>('/');
    const received = receiver.received;
    const config = { companies: [demoCompanyA(receiver.url)] };
    try {
      let db = await openPglite(dir);
      const t = await startTestSandbox({ database: db, seed: undefined, config });
      // Held, so that the event is still waiting when the process stops.
      await t.sandbox.dispatcher.setPaused(keyA, true);
      const { id } = await t.a.begin({});
      await t.control.completeSession({ sessionId: id, result: 'approved' });
      await t.close();
      await db.close();
      expect(received).toEqual([]);

      db = await openPglite(dir);
      // Started as the command line does: no reset, the data as it was left.
      const again = createSandbox({ database: db, companies: companiesFrom(config), adminToken });
      try {
        await again.dispatcher.setPaused(keyA, false);
        await again.dispatcher.idle();
        expect(received).toContainEqual(expect.objectContaining({ type: 'session-change', sessionId: id, result: 'APPROVED' }));
      } finally {
        await again.close();
        await db.close();
      }
    } finally {
      receiver.close();
    }
    // Two PGlite starts (a worker thread each, whose statements wait for it to be scheduled): 15 to 25 s at load 35 to 40.
  }, 60_000);
});

describe('the rate limit on one PostgreSQL', () => {
  // The reference's 600 a minute. Each case on a database of its own, so that the 601st goes first to one
  // instance and then to the other.
  it.each([0, 1])('counts one address across two sandboxes: the 601st request in a minute gets 529 from instance %i, then from both', async (last) => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const databases = [await openPostgres(url), await openPostgres(url)];
    const sandboxes = databases.map((database) => createSandbox({ database, companies: companiesFrom({ companies: [{ companyKey: keyA, sessionConfigs: demoSessionConfigs }] }) }));
    try {
      const origins = await Promise.all(sandboxes.map((s) => s.listen(0, '127.0.0.1')));
      // The applicant page is limited like the API; an unknown token is a 404 that still counts.
      const status = async (origin: string) => (await fetch(`${origin}/widget/?session_token=none`)).status;
      const allowed: number[] = [];
      for (let i = 0; i < 600; i += 20) allowed.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => status(origins[(i + j) % 2]!)))));
      expect(allowed).toEqual(Array(600).fill(404));
      expect(await status(origins[last]!)).toBe(529);
      expect(await status(origins[1 - last]!)).toBe(529);
    } finally {
      for (const sandbox of sandboxes) await sandbox.close();
      for (const database of databases) await database.close();
    }
  }, 120_000);
});
