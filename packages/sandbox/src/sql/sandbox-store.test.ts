// The sandbox on each store: parallel requests keep the duplicate rule, and a PGlite data directory
// keeps a company's data across a restart of the sandbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { keyA, startTestSandbox } from '../sandbox.test-helper.js';
import type { Database } from './database.js';
import { migrate, migrations } from './migrations.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

let shared: Promise<Database> | undefined;
let server: Promise<Database> | undefined;
afterAll(async () => {
  await (await shared)?.close();
  await (await server)?.close();
});
const postgresDatabase = () => (server ??= createTestDatabase(inject('postgresUrl')).then((url) => openPostgres(url)));

const stores: [string, () => Promise<Database | undefined>][] = [
  ['memory', async () => undefined],
  ['PGlite', () => (shared ??= openPglite())],
  ['PostgreSQL', postgresDatabase],
];

async function post(url: string, path: string, body: unknown) {
  const response = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as any };
}

describe.each(stores)('the sandbox on the %s store', (_, database) => {
  it('50 parallel add-blacklist-record calls for one identity: one added, 49 already-exists, one record stored', async () => {
    const t = await startTestSandbox({ database: await database(), rateLimit: 10_000 });
    try {
      await t.sandbox.reset();
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => post(t.url, '/add-blacklist-record', { companyKey: keyA, query: { reason: `attempt ${i}`, documentNumber: ' 13ID00421 ', firstName: 'Jane' } })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.json.argumentError === 'already-exists')).toHaveLength(49);
      const list = await post(t.url, '/list-blacklist-records', { companyKey: keyA, query: {} });
      expect(list.json.result.total).toBe(1);
      expect(list.json.result.data).toHaveLength(1);
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('a PGlite data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-restart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps sessions, results and blacklist records across a restart of the sandbox', async () => {
    let db = await openPglite(dir);
    let t = await startTestSandbox({ database: db, seed: undefined });
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    const added = await post(t.url, '/add-blacklist-record', { companyKey: keyA, query: { reason: 'kept', documentNumber: 'D-KEPT' } });
    expect(added.status).toBe(200);
    await t.close();
    await db.close();

    db = await openPglite(dir);
    t = await startTestSandbox({ database: db, seed: undefined });
    try {
      expect(await t.legacyA.getResult({ session_token: id })).toMatchObject({ result: 'approved' });
      const list = await post(t.url, '/list-blacklist-records', { companyKey: keyA, query: {} });
      expect(list.json.result.data).toEqual([{ id: added.json.result, reason: 'kept', documentNumber: 'D-KEPT' }]);
      expect((await post(t.url, '/add-blacklist-record', { companyKey: keyA, query: { reason: 'again', documentNumber: 'd-kept' } })).json).toEqual({ argumentError: 'already-exists' });
      const activities = (await post(t.url, '/list-session-activities', { companyKey: keyA, sessionId: id })).json.result;
      expect(activities.map((a: { type: string }) => a.type)).toContain('STATUS_CHANGED');
    } finally {
      await t.close();
      await db.close();
    }
  }, 180_000);
});

describe('a PGlite data directory made by the first migration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-old-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is upgraded in place when the sandbox starts on it: its records kept, the later rules and tables in force', async () => {
    // What a sandbox with only migration 1 left behind: a blacklist record and the company's usage.
    let db = await openPglite(dir);
    expect(await migrate(db, 1)).toEqual([1]);
    const data = { id: 'blk_old', reason: 'from version 1', documentNumber: 'D-OLD' };
    await db.query(`insert into blacklist_records (id, company, size, data) values ($1, $2, 60, $3::text::json)`, [data.id, keyA, JSON.stringify(data)]);
    await db.query(`insert into blacklist_records_keys (company, name, key, id) values ($1, 'identity', $2, $3), ($1, 'match', 'doc:d-old', $3)`, [keyA, JSON.stringify(['', '', '', 'd-old', '']), data.id]);
    await db.query(`insert into company_usage (company, collection, records, bytes) values ($1, 'blacklist', 1, 60)`, [keyA]);
    await db.close();

    db = await openPglite(dir);
    const t = await startTestSandbox({ database: db, seed: undefined });
    try {
      const list = await post(t.url, '/list-blacklist-records', { companyKey: keyA, query: {} });
      expect(list.json.result).toMatchObject({ total: 1, data: [data] });
      expect((await post(t.url, '/add-blacklist-record', { companyKey: keyA, query: { reason: 'again', documentNumber: 'd-old' } })).json).toEqual({ argumentError: 'already-exists' });
      // Migration 3's tables: the callback log answers, and a new session is kept.
      expect((await post(t.url, '/sandbox/callbacks', { companyKey: keyA })).status).toBe(200);
      expect((await t.a.begin({})).id).toEqual(expect.any(String));
      expect((await db.query<{ version: number }>('select version from schema_migrations order by version')).map((row) => row.version)).toEqual(migrations.map((m) => m.version));
    } finally {
      await t.close();
      await db.close();
    }
  }, 180_000);
});

// Random IDs (no seed) wherever a database outlives a sandbox or is shared: a seed would repeat them.
describe('two sandboxes on one PostgreSQL', () => {
  it('500 identities each added through both at once: exactly 500 added and 500 already-exists, 500 records', async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const [db1, db2] = await Promise.all([openPostgres(url), openPostgres(url)]);
    const one = await startTestSandbox({ database: db1, rateLimit: 100_000, seed: undefined });
    const two = await startTestSandbox({ database: db2, rateLimit: 100_000, seed: undefined });
    try {
      const add = (origin: string, i: number) => post(origin, '/add-blacklist-record', { companyKey: keyA, query: { reason: 'shared', documentNumber: `D${i}` } });
      const answers = await Promise.all(Array.from({ length: 500 }, (_, i) => [add(one.url, i), add(two.url, i)]).flat());
      expect(answers.filter((a) => a.status === 200)).toHaveLength(500);
      expect(answers.filter((a) => a.json.argumentError === 'already-exists')).toHaveLength(500);
      expect((await post(two.url, '/list-blacklist-records', { companyKey: keyA, query: { limit: 1 } })).json.result.total).toBe(500);
      // A session made through one is finished and read through the other.
      const { id } = await one.a.begin({ configId: 'cfg-kyc-standard-01' });
      await two.control.completeSession({ sessionId: id, result: 'approved' });
      expect(await one.legacyA.getResult({ session_token: id })).toMatchObject({ result: 'approved' });
    } finally {
      await one.close();
      await two.close();
      await db1.close();
      await db2.close();
    }
  }, 180_000);
});
