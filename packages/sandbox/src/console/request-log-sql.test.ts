// The request log shared by instances on one PostgreSQL: a request answered by one instance is in the
// other's console, redacted and kept apart by company; the log keeps the latest rows; an open console
// hears of another instance's request.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';
import type { Database } from '../sql/database.js';
import { createTestDatabase } from '../sql/pg-cluster.test-helper.js';
import { openPostgres } from '../sql/postgres.js';
import { createSqlRequestLog } from './request-log-sql.js';
import { rawRequest } from './request-log-rows.test-helper.js';

let url: string;
const opened: Database[] = [];
const open = async (on = url) => {
  const db = await openPostgres(on);
  opened.push(db);
  return db;
};
beforeAll(async () => {
  url = await createTestDatabase(inject('postgresUrl'));
}, 60_000);
afterAll(async () => {
  for (const db of opened) await db.close();
});

const raw = (n: number) => rawRequest(n, { body: { companyKey: keyA, n } });

describe('the request log on PostgreSQL', () => {
  it('shows a request answered by one instance in the other instance\'s console, redacted, to its company only', async () => {
    const [one, two] = await Promise.all([startTestSandbox({ database: await open() }), startTestSandbox({ database: await open() })]);
    try {
      const { id } = await one.a.begin({ configId: 'cfg-kyc-standard-01' });
      await expect.poll(async () => (await two.control.listRequests({ operation: 'begin' })).result.map((r) => r.sessionId), { timeout: 5000 }).toEqual([id]);
      const [entry] = (await two.control.listRequests({ sessionId: id })).result;
      expect(entry!.request.text).toContain('"companyKey": "[redacted]"');
      expect(JSON.stringify((await two.control.getRequest({ requestId: entry!.id })).result)).not.toContain(keyA);
      expect((await two.controlB.listRequests({})).result.filter((r) => r.operation === 'begin')).toEqual([]);
      expect(await two.sandbox.invoke('sandboxGetRequest', { companyKey: keyB, requestId: entry!.id })).toEqual({ status: 400, json: { argumentError: 'not-found' } });
      expect((await two.control.listRateLimit({})).result.map((r) => r.ip)).toEqual(['127.0.0.1']);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 60_000);

  it("shows an instance's own requests at once, before their batch is due", async () => {
    const log = createSqlRequestLog({ database: await open(await createTestDatabase(inject('postgresUrl'))), secrets: [keyA], batchMs: 60_000 });
    try {
      log.record(raw(7), keyA);
      log.record(raw(8), keyA);
      expect((await log.list(keyA, {})).map((item) => JSON.parse(item.entry.request.text!).n)).toEqual([8, 7]);
    } finally {
      log.close();
    }
  }, 60_000);

  it('keeps the latest rows only, and tells an open console of another instance\'s request', async () => {
    // A database of its own: the instances of the test before write their last requests as they close.
    const own = await createTestDatabase(inject('postgresUrl'));
    const writer = createSqlRequestLog({ database: await open(own), secrets: [keyA], size: 3 });
    const reader = createSqlRequestLog({ database: await open(own), secrets: [keyA], size: 3, pollMs: 50 });
    const heard: (string | undefined)[] = [];
    const stop = reader.subscribe((entry) => heard.push(entry.companyKey));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const n of [1, 2, 3, 4, 5]) writer.record(raw(n), keyA);
      await writer.flushed();
      const kept = await reader.list(keyA, { limit: 10 });
      expect(kept.map((item) => JSON.parse(item.entry.request.text!).n)).toEqual([5, 4, 3]);
      expect(kept.every((item) => !item.entry.request.text!.includes(keyA))).toBe(true);
      await expect.poll(() => heard.length, { timeout: 3000 }).toBeGreaterThanOrEqual(1);
      expect(heard.every((key) => key === keyA)).toBe(true);
    } finally {
      stop();
      writer.close();
      reader.close();
    }
  }, 60_000);
});
