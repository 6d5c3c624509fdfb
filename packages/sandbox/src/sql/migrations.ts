/**
 * The SQL stores' schema, as numbered migrations applied in order at start-up (`migrate`). Each is
 * applied once, in its own transaction, and recorded in `schema_migrations`, so an older database is
 * upgraded in place. A migration is never edited once released: a change is a new migration.
 *
 * Layout: one table per kind of record (`id` primary key, `company`, an insertion `seq` for the
 * oldest-first order, the estimated `size` charged to the company's budget, the record as `data` json (its text as written),
 * and a file's `bytes` apart as bytea), one `<table>_keys` table of its index keys (company, index name,
 * key -> id), and `company_usage` (records and bytes per company and kind: the caps of limits.ts read
 * one row, never count a table).
 */
import type { Database } from './database.js';
import { outboxTables } from './outbox.js';
import { rateLimitTables } from './rate-limit.js';

export type Migration = { version: number; name: string; statements: string[] };

/** The record tables of migration 1, frozen here: a later kind of record comes with a later migration. */
const firstTables = ['sessions', 'blacklist_records', 'users', 'user_groups', 'monitoring_queries', 'files'];

const recordTable = (table: string) => [
  `create table ${table} (
     id text primary key,
     company text not null,
     seq bigint generated always as identity,
     size integer not null,
     data json not null,
     bytes bytea
   )`,
  // Every listing and page is one company's records in insertion order.
  `create index ${table}_company_seq on ${table} (company, seq)`,
  `create table ${table}_keys (
     company text not null,
     name text not null,
     key text not null,
     id text not null,
     primary key (company, name, key, id)
   )`,
  // A record's keys are replaced or removed with it, by ID.
  `create index ${table}_keys_id on ${table}_keys (id)`,
];

/**
 * Unique keys per company, for the rules that must hold across instances: one blacklist record per
 * identity, one user per e-mail address, one monitored name per key. An older database may hold
 * duplicates (written before the rule was in the database): the oldest record of each key stays.
 */
const uniqueKeys = (table: string, name: string) => [
  `delete from ${table} where id in (
     select id from (
       select k.id, row_number() over (partition by k.company, k.key order by r.seq) as n
       from ${table}_keys k join ${table} r on r.id = k.id
       where k.name = '${name}'
     ) ranked where n > 1
   )`,
  `delete from ${table}_keys k where not exists (select 1 from ${table} r where r.id = k.id)`,
  `create unique index ${table}_keys_unique_${name} on ${table}_keys (company, key) where name = '${name}'`,
];

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'records, index keys and company usage',
    statements: [
      ...firstTables.flatMap(recordTable),
      `create table company_usage (
         company text not null,
         collection text not null,
         records integer not null default 0,
         bytes bigint not null default 0,
         primary key (company, collection)
       )`,
    ],
  },
  {
    version: 2,
    name: 'unique keys: blacklist identity, user e-mail, monitored name',
    statements: [...uniqueKeys('blacklist_records', 'identity'), ...uniqueKeys('users', 'email'), ...uniqueKeys('monitoring_queries', 'key')],
  },
  {
    version: 3,
    name: 'shared rate limit and durable callback outbox',
    statements: [...rateLimitTables, ...outboxTables],
  },
];

/** Advisory lock keys of the sandbox (first int): 1 for migrations, 2 for a company's writes (store.ts). */
export const lockClass = { migrations: 1, companyWrites: 2 } as const;

/**
 * Applies the migrations the database has not seen, in order; returns the versions applied. Several
 * instances may start at once: an advisory lock lets one migrate while the others wait, then find
 * nothing left to do. `upTo` stops early (tests make an older database with it).
 */
export async function migrate(db: Database, upTo: number = Infinity): Promise<number[]> {
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version > upTo) break;
    const done = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1, 0)', [lockClass.migrations]);
      await tx.query(`create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())`);
      const seen = await tx.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (seen.length) return false;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

/** The highest version applied, 0 for a new database. */
export async function schemaVersion(db: Database): Promise<number> {
  const rows = await db.query<{ version: number | null }>(`select max(version) as version from schema_migrations`);
  return rows[0]?.version ?? 0;
}
