// The schema that migrations 1 to 3 make, column by column and index by index, on PostgreSQL. A released
// migration is never edited (migrations.ts): a database made by an older sandbox must be the database a new
// one makes, or instances of two versions on one database disagree. So this is the released schema as
// written down once; a later migration adds to it and leaves this test as it is. The unique indexes
// hold the cross-instance rules, the (company, seq) indexes every listing, the unlogged rate-limit table
// the counts that a crash may forget.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Database } from './database.js';
import { migrate } from './migrations.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';

const records = ['blacklist_records', 'files', 'monitoring_queries', 'sessions', 'user_groups', 'users'];
const recordColumns = 'id text not null, company text not null, seq bigint not null identity ALWAYS, size integer not null, data json not null, bytes bytea';
const keyColumns = 'company text not null, name text not null, key text not null, id text not null';

const tables: Record<string, string> = {
  ...Object.fromEntries(records.flatMap((table) => [[table, recordColumns], [`${table}_keys`, keyColumns]])),
  company_usage: 'company text not null, collection text not null, records integer not null default 0, bytes bigint not null default 0',
  schema_migrations: 'version integer not null, name text not null, applied_at timestamp with time zone not null default now()',
  'rate_limit_hits (unlogged)': 'ip text not null, window_start bigint not null, hits integer not null, blocked_until bigint',
  callback_outbox: 'seq bigint not null identity ALWAYS, event_id text not null, company text not null, session_id text not null, url text not null, callback_key text not null, payload json not null, attempts integer not null default 0, due_at bigint not null, leased_until bigint, leased_by text',
  callback_attempts: 'seq bigint not null identity ALWAYS, company text not null, event_id text not null, attempt integer not null, type text not null, session_id text not null, url text not null, sent_at text not null, outcome text not null, status integer, payload json not null',
  callback_pauses: 'company text not null',
};

const index = (name: string, table: string, columns: string, unique = false, where = '') => `CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${name} ON public.${table} USING btree (${columns})${where ? ` WHERE (${where})` : ''}`;
const indexes = [
  ...records.flatMap((table) => [
    index(`${table}_pkey`, table, 'id', true),
    index(`${table}_company_seq`, table, 'company, seq'),
    index(`${table}_keys_pkey`, `${table}_keys`, 'company, name, key, id', true),
    index(`${table}_keys_id`, `${table}_keys`, 'id'),
  ]),
  index('blacklist_records_keys_unique_identity', 'blacklist_records_keys', 'company, key', true, "name = 'identity'::text"),
  index('users_keys_unique_email', 'users_keys', 'company, key', true, "name = 'email'::text"),
  index('monitoring_queries_keys_unique_key', 'monitoring_queries_keys', 'company, key', true, "name = 'key'::text"),
  index('company_usage_pkey', 'company_usage', 'company, collection', true),
  index('schema_migrations_pkey', 'schema_migrations', 'version', true),
  index('rate_limit_hits_pkey', 'rate_limit_hits', 'ip', true),
  index('callback_outbox_pkey', 'callback_outbox', 'seq', true),
  index('callback_outbox_event_id_key', 'callback_outbox', 'event_id', true),
  index('callback_outbox_session', 'callback_outbox', 'company, session_id, seq'),
  index('callback_attempts_pkey', 'callback_attempts', 'seq', true),
  index('callback_attempts_company', 'callback_attempts', 'company, seq'),
  index('callback_pauses_pkey', 'callback_pauses', 'company', true),
].sort();

let db: Database;
beforeAll(async () => {
  db = await openPostgres(await createTestDatabase(inject('postgresUrl')));
  expect(await migrate(db, 3)).toEqual([1, 2, 3]);
});
afterAll(() => db?.close());

it('makes the released tables, each column with its type, nullability, default and identity', async () => {
  const columns = await db.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null; is_identity: string; identity_generation: string | null; relpersistence: string }>(
    `select c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default, c.is_identity, c.identity_generation, t.relpersistence
     from information_schema.columns c join pg_class t on t.relname = c.table_name and t.relnamespace = 'public'::regnamespace
     where c.table_schema = 'public' order by c.table_name, c.ordinal_position`,
  );
  const found = new Map<string, string[]>();
  for (const c of columns) {
    const table = `${c.table_name}${c.relpersistence === 'u' ? ' (unlogged)' : ''}`;
    const column = `${c.column_name} ${c.data_type}${c.is_nullable === 'NO' ? ' not null' : ''}${c.column_default ? ` default ${c.column_default}` : ''}${c.is_identity === 'YES' ? ` identity ${c.identity_generation}` : ''}`;
    found.set(table, [...(found.get(table) ?? []), column]);
  }
  expect(Object.fromEntries([...found].map(([table, list]) => [table, list.join(', ')]))).toEqual(tables);
});

it('makes the released indexes: primary keys, the unique rules, and the listing and lookup indexes', async () => {
  const rows = await db.query<{ indexdef: string }>(`select indexdef from pg_indexes where schemaname = 'public' order by indexname`);
  expect(rows.map((row) => row.indexdef).sort()).toEqual(indexes);
});

it('records each migration with its name', async () => {
  expect(await db.query('select version, name from schema_migrations order by version')).toEqual([
    { version: 1, name: 'records, index keys and company usage' },
    { version: 2, name: 'unique keys: blacklist identity, user e-mail, monitored name' },
    { version: 3, name: 'shared rate limit and durable callback outbox' },
  ]);
});
