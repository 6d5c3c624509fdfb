// An older database brought up to date by `migrate` (migrations.ts), on PostgreSQL: from version 1, the
// duplicate users (one e-mail) and monitored names (one key) written before the rule was in the database
// go, the oldest of each kept, with the keys of those that went, and the rule holds from then on, per
// company and for its own kind of key only; from version 2, only migration 3 runs; two instances that
// start at once on a new database apply each migration once; a second start applies nothing.
// store.test.ts checks the blacklist's identity rule the same way on PGlite.
import { afterEach, expect, inject, it } from 'vitest';
import type { Database } from './database.js';
import { migrate, schemaVersion } from './migrations.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';

const a = 'ck_test_migrate_a_0000';
const b = 'ck_test_migrate_b_0000';
const opened: Database[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});
async function newDatabase(handles = 1): Promise<Database[]> {
  const url = await createTestDatabase(inject('postgresUrl'));
  for (let i = 0; i < handles; i++) opened.push(await openPostgres(url));
  return opened.slice(-handles);
}

/** A record and its keys as a version with only migration 1 wrote them. */
async function put(db: Database, table: string, company: string, id: string, keys: [name: string, key: string][]) {
  await db.query(`insert into ${table} (id, company, size, data) values ($1, $2, 10, $3::text::json)`, [id, company, JSON.stringify({ id })]);
  for (const [name, key] of keys) await db.query(`insert into ${table}_keys (company, name, key, id) values ($1, $2, $3, $4)`, [company, name, key, id]);
}
const ids = async (db: Database, table: string) => (await db.query<{ id: string }>(`select id from ${table} order by seq`)).map((row) => row.id);
const keysOf = async (db: Database, table: string) => (await db.query<{ company: string; name: string; key: string; id: string }>(`select company, name, key, id from ${table}_keys order by id, name, key`)).map((k) => `${k.company === a ? 'a' : 'b'} ${k.name} ${k.key} ${k.id}`);

it('upgrades a version 1 database: the oldest user of an e-mail and monitored name of a key stay, the rest go with their keys', async () => {
  const [db] = (await newDatabase()) as [Database];
  expect(await migrate(db, 1)).toEqual([1]);
  expect(await schemaVersion(db)).toBe(1);
  await put(db, 'users', a, 'usr_old', [['email', 'ann@example.org'], ['name', 'ann']]);
  await put(db, 'users', a, 'usr_dup', [['email', 'ann@example.org'], ['name', 'ann 2']]);
  await put(db, 'users', b, 'usr_b', [['email', 'ann@example.org']]);
  await put(db, 'users', a, 'usr_other', [['email', 'bob@example.org'], ['name', 'ann@example.org']]);
  await put(db, 'monitoring_queries', a, 'mon_old', [['key', 'k1']]);
  await put(db, 'monitoring_queries', a, 'mon_dup', [['key', 'k1']]);
  await put(db, 'monitoring_queries', a, 'mon_third', [['key', 'k1']]);

  expect(await migrate(db)).toEqual([2, 3]);
  expect(await schemaVersion(db)).toBe(3);
  expect(await ids(db, 'users')).toEqual(['usr_old', 'usr_b', 'usr_other']);
  expect(await keysOf(db, 'users')).toEqual(['b email ann@example.org usr_b', 'a email ann@example.org usr_old', 'a name ann usr_old', 'a email bob@example.org usr_other', 'a name ann@example.org usr_other']);
  expect(await ids(db, 'monitoring_queries')).toEqual(['mon_old']);
  expect(await keysOf(db, 'monitoring_queries')).toEqual(['a key k1 mon_old']);

  // From now on the database refuses a second user of an e-mail and a second monitored name of a key in
  // one company, whatever the code checks; another company, or another kind of key, is not held.
  await expect(db.query(`insert into users_keys (company, name, key, id) values ($1, 'email', 'ann@example.org', 'usr_x')`, [a])).rejects.toMatchObject({ code: '23505' });
  await expect(db.query(`insert into monitoring_queries_keys (company, name, key, id) values ($1, 'key', 'k1', 'mon_x')`, [a])).rejects.toMatchObject({ code: '23505' });
  await db.query(`insert into users_keys (company, name, key, id) values ($1, 'email', 'bob@example.org', 'usr_b2')`, [b]);
  await db.query(`insert into users_keys (company, name, key, id) values ($1, 'name', 'ann', 'usr_y')`, [a]);
  await db.query(`insert into monitoring_queries_keys (company, name, key, id) values ($1, 'key', 'k1', 'mon_b')`, [b]);
});

it('upgrades a version 2 database with migration 3 alone, and applies nothing on the next start', async () => {
  const [db] = (await newDatabase()) as [Database];
  expect(await migrate(db, 2)).toEqual([1, 2]);
  await expect(db.query('select 1 from callback_outbox')).rejects.toMatchObject({ code: '42P01' });
  expect(await migrate(db)).toEqual([3]);
  expect(await db.query('select count(*) as n from callback_outbox')).toEqual([{ n: 0 }]);
  expect(await migrate(db)).toEqual([]);
  expect((await db.query<{ version: number }>('select version from schema_migrations order by version')).map((row) => row.version)).toEqual([1, 2, 3]);
});

it('applies each migration once when two instances start at once on a new database', async () => {
  const [first, second] = (await newDatabase(2)) as [Database, Database];
  const [one, two] = await Promise.all([migrate(first), migrate(second)]);
  expect([...one!, ...two!].sort()).toEqual([1, 2, 3]);
  expect(await schemaVersion(second)).toBe(3);
});
