// The SQL store on PGlite and PostgreSQL: the shared contract, migrations (a database made by the first
// migration is upgraded in place), rollback, and a data directory that outlives its process's handle.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { defaultLimits } from '../limits.js';
import { storeContract } from '../store-contract.test-helper.js';
import { Duplicate } from '../store.js';
import type { Database } from './database.js';
import { migrate, migrations, schemaVersion } from './migrations.js';
import { mirroredState } from './mirror.js';
import { sqlState } from './store.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

// One database per engine for the contract (a new PGlite takes seconds to start), emptied before each test.
let shared: Promise<Database> | undefined;
let server: Promise<Database> | undefined;
afterAll(async () => {
  await (await shared)?.close();
  await (await server)?.close();
});
storeContract('PGlite', async (limits) => {
  const state = sqlState(await (shared ??= openPglite()), limits);
  await state.clear();
  return { state, close: async () => {} };
});
storeContract('PGlite mirrored in memory', async (limits) => {
  const state = mirroredState(await (shared ??= openPglite()), limits);
  await state.clear();
  return { state, close: () => state.close() };
});
storeContract('PostgreSQL', async (limits) => {
  const state = sqlState(await (server ??= createTestDatabase(inject('postgresUrl')).then((url) => openPostgres(url))), limits);
  await state.clear();
  return { state, close: async () => {} };
});

const a = 'ck_test_sql_a_0000';
let db: Database | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await db?.close();
  db = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('migrations', () => {
  it('a new database gets every migration once, recorded in schema_migrations', async () => {
    const fresh = await (shared ??= openPglite());
    await fresh.query('drop schema public cascade');
    await fresh.query('create schema public');
    expect(await migrate(fresh)).toEqual(migrations.map((m) => m.version));
    expect(await migrate(fresh)).toEqual([]);
    expect(await fresh.query('select version, name from schema_migrations order by version')).toEqual(migrations.map(({ version, name }) => ({ version, name })));
  }, 120_000);

  it('a database made by the first migration is upgraded in place: its data kept, an old duplicate dropped, the unique rule enforced', async () => {
    db = await openPglite();
    expect(await migrate(db, 1)).toEqual([1]);
    // What a version with only migration 1 could have written: two records of one identity.
    const identity = JSON.stringify(['', '', '', 'd1', '']);
    for (const [seq, id] of ['blk_old', 'blk_dup'].entries()) {
      await db.query(`insert into blacklist_records (id, company, size, data) values ($1, $2, 40, $3::text::json)`, [id, a, JSON.stringify({ id, reason: `r${seq}`, documentNumber: 'D1' })]);
      await db.query(`insert into blacklist_records_keys (company, name, key, id) values ($1, 'identity', $2, $3), ($1, 'match', 'doc:d1', $3)`, [a, identity, id]);
    }
    await db.query(`insert into company_usage (company, collection, records, bytes) values ($1, 'blacklist', 2, 80)`, [a]);
    const state = sqlState(db, defaultLimits);
    // The first statement of the store brings the schema up to date.
    expect(await state.blacklist.get(a, 'blk_old')).toEqual({ id: 'blk_old', reason: 'r0', documentNumber: 'D1' });
    expect(await schemaVersion(db)).toBe(migrations.at(-1)!.version);
    expect(await state.blacklist.get(a, 'blk_dup')).toBeUndefined();
    expect((await state.blacklist.find(a, 'match', 'doc:d1')).map((r) => r.id)).toEqual(['blk_old']);
    // The database itself refuses a duplicate now, whatever the code checks.
    await expect(db.query(`insert into blacklist_records_keys (company, name, key, id) values ($1, 'identity', $2, 'blk_x')`, [a, identity])).rejects.toMatchObject({ code: '23505' });
    await expect(state.blacklist.put(a, 'blk_new', { id: 'blk_new', reason: 'r', documentNumber: 'd1' })).rejects.toBeInstanceOf(Duplicate);
  }, 120_000);
});

describe('transactions', () => {
  it('a throw rolls back every write of the transaction', async () => {
    const state = sqlState(await (shared ??= openPglite()), defaultLimits);
    await expect(
      state.transaction(a, async (tx) => {
        await tx.users.put(a, 'usr_1', { id: 'usr_1', username: 'x@example.org', email: 'x@example.org', roles: [], emailVerified: false });
        throw new Error('refused after a write');
      }),
    ).rejects.toThrow('refused after a write');
    expect(await state.users.get(a, 'usr_1')).toBeUndefined();
    expect(await state.users.count(a)).toBe(0);
  });
});

describe('a data directory', () => {
  it('keeps every record after the database is closed and opened again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-store-'));
    dirs.push(dir);
    db = await openPglite(dir);
    let state = sqlState(db, defaultLimits);
    await state.users.put(a, 'usr_1', { id: 'usr_1', username: 'x@example.org', email: 'x@example.org', roles: ['administrator'], emailVerified: true });
    await state.files.put(a, 'file_1', { id: 'file_1', sessionId: 'sess_1', stepKey: 's', questionKey: 'q', contentType: 'image/png', bytes: new Uint8Array([1, 2, 3]), uploadedAt: 'now' });
    await db.close();
    db = await openPglite(dir);
    state = sqlState(db, defaultLimits);
    expect(await state.users.find(a, 'email', 'x@example.org')).toEqual([{ id: 'usr_1', username: 'x@example.org', email: 'x@example.org', roles: ['administrator'], emailVerified: true }]);
    expect([...(await state.files.get(a, 'file_1'))!.bytes]).toEqual([1, 2, 3]);
    expect(await state.users.count(a)).toBe(1);
    expect(await migrate(db)).toEqual([]);
  }, 120_000);
});
