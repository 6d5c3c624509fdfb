// The plans PostgreSQL keeps for the store's prepared statements (issue 15's bench): after five runs a
// prepared statement may run a generic plan, made without the parameters' values and, on a new
// database, while the tables are still empty, then kept as they grow. A write's checks must look their
// keys and IDs up in the indexes whatever the plan: a join planned as a scan of ALL of the company's keys,
// or an `id = any(...)` planned as a scan of the whole table, made each add read every record or key the
// company had (0.9 ms of PostgreSQL's time per add at a few thousand records, and growing).
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import postgres from 'postgres';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { migrate } from './migrations.js';
import { openPostgres } from './postgres.js';
import { defaultLimits } from '../limits.js';
import { checkedWriteSql, manyNewSql, sqlCollectionsIn } from './store.js';

const company = 'ck_test_plans_0000';
let sql: postgres.Sql | undefined;
afterAll(async () => {
  await sql?.end({ timeout: 0 });
});

type PlanNode = { 'Relation Name'?: string; 'Actual Rows'?: number; 'Rows Removed by Filter'?: number; Plans?: PlanNode[] };
/** The most rows any one node of the plan read from `table` (kept or filtered out), per loop. */
const mostRowsFrom = (node: PlanNode, table: string): number =>
  Math.max(node['Relation Name'] === table ? (node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) : 0, ...(node.Plans ?? []).map((child) => mostRowsFrom(child, table)));
const planOf = async (statement: string) => ((await sql!.unsafe(`explain (analyze, format json) ${statement}`)) as unknown as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }])[0]['QUERY PLAN'][0].Plan;

const put = (id: string, identity: string) => `execute put('${id}', '${company}', 100, '{}', null, array['identity', 'match'], array['${identity}', 'match-${id}'], 'blacklist', array['identity'], array['${identity}'], null, null)`;
const many = (n: string) =>
  `execute many(array['blk_a${n}', 'blk_b${n}'], array[100, 100], '[{}, {}]', '${company}', 'blacklist', array['identity', 'match', 'identity', 'match'], array['ia${n}', 'ma${n}', 'ib${n}', 'mb${n}'], array['blk_a${n}', 'blk_a${n}', 'blk_b${n}', 'blk_b${n}'], array['identity', 'identity'], array['ia${n}', 'ib${n}'], null, null, 2, 200)`;

beforeAll(async () => {
  const url = await createTestDatabase(inject('postgresUrl'));
  const db = await openPostgres(url);
  await migrate(db);
  await db.close();
  sql = postgres(url, { max: 1, onnotice: () => {} });
  // The generic plans, made (at their first run) while the tables are empty, as on a new database.
  await sql.unsafe('set plan_cache_mode = force_generic_plan');
  await sql.unsafe(`prepare put(text, text, integer, text, bytea, text[], text[], text, text[], text[], float8, float8) as ${checkedWriteSql('blacklist_records')}`);
  await sql.unsafe(`prepare many(text[], integer[], text, text, text, text[], text[], text[], text[], text[], float8, float8, integer, bigint) as ${manyNewSql('blacklist_records')}`);
  await sql.unsafe('begin');
  await sql.unsafe(put('blk_first', 'identity-first'));
  await sql.unsafe(many('first'));
  await sql.unsafe('rollback');
  // 2,000 records of the company, each with its identity and match keys, written as a put writes them.
  await sql.unsafe(`insert into blacklist_records (id, company, size, data) select 'blk_' || n, $1, 100, '{}' from generate_series(1, 2000) n`, [company]);
  await sql.unsafe(`insert into blacklist_records_keys (company, name, key, id) select $1, k, k || n, 'blk_' || n from generate_series(1, 2000) n, unnest(array['identity', 'match']) k`, [company]);
}, 60_000);

it("a put's checks read only the keys and the record they ask for", async () => {
  const plan = await planOf(put('blk_new', 'identity-new'));
  expect(mostRowsFrom(plan, 'blacklist_records_keys')).toBeLessThanOrEqual(2);
  expect(mostRowsFrom(plan, 'blacklist_records')).toBeLessThanOrEqual(2);
  // A taken identity is still found.
  const [row] = await sql!.unsafe(put('blk_other', 'identity7'));
  expect(row).toMatchObject({ clash: 'identity', written: false });
}, 60_000);

it('the write of several new records reads only their own IDs and keys', async () => {
  const plan = await planOf(many('new'));
  expect(mostRowsFrom(plan, 'blacklist_records_keys')).toBeLessThanOrEqual(2);
  expect(mostRowsFrom(plan, 'blacklist_records')).toBeLessThanOrEqual(2);
  // A stored ID is still found: nothing is written.
  const [row] = await sql!.unsafe(
    `execute many(array['blk_x', 'blk_7'], array[100, 100], '[{}, {}]', '${company}', 'blacklist', array['identity', 'identity'], array['ix', 'iy'], array['blk_x', 'blk_7'], array['identity', 'identity'], array['ix', 'iy'], null, null, 2, 200)`,
  );
  expect(row).toMatchObject({ written: false });
}, 60_000);

it("a page of a listing reads the page's records, not all of the company's, when its first runs were on empty tables", async () => {
  // Generic plans whenever PostgreSQL may use one, on one connection: a prepared page statement run on empty
  // tables would keep the plan made then (read all of the company's records and sort them).
  const db = await openPostgres(`${await createTestDatabase(inject('postgresUrl'))}?plan_cache_mode=force_generic_plan`, { max: 1 });
  try {
    await migrate(db);
    for (let run = 0; run < 6; run++) await db.transaction((tx) => sqlCollectionsIn(tx, defaultLimits).blacklist.page(company, 0, 10));
    await db.query(`insert into blacklist_records (id, company, size, data) select 'blk_' || n, $1, 100, '{}' from generate_series(1, 2000) n`, [company]);
    const read = await db.transaction(async (tx) => {
      const page = await sqlCollectionsIn(tx, defaultLimits).blacklist.page(company, 0, 10);
      const [row] = await tx.query<{ fetched: number }>(`select (seq_tup_read + coalesce(idx_tup_fetch, 0))::integer as fetched from pg_stat_xact_user_tables where relname = 'blacklist_records'`);
      return { page: page.length, fetched: row!.fetched };
    });
    expect(read.page).toBe(10);
    expect(read.fetched).toBeLessThanOrEqual(20);
  } finally {
    await db.close();
  }
}, 60_000);
