// The plans PostgreSQL keeps for the store's prepared statements (issue 15's bench): after five runs a
// prepared statement may run a generic plan, made without the parameters' values and, on a new
// database, from a table never analysed. A put's unique-key check must look its keys up in the index,
// whatever the plan: a join planned as a scan of ALL of the company's keys made each add read every key
// the company had (0.9 ms of PostgreSQL's time per add at a few thousand records, and growing).
import { afterAll, expect, inject, it } from 'vitest';
import postgres from 'postgres';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { migrate } from './migrations.js';
import { openPostgres } from './postgres.js';
import { checkedWriteSql } from './store.js';

const company = 'ck_test_plans_0000';
let sql: postgres.Sql | undefined;
afterAll(async () => {
  await sql?.end({ timeout: 0 });
});

type PlanNode = { 'Relation Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; Plans?: PlanNode[] };
/** The most rows any one node of the plan read from `table`, per loop. */
const mostRowsFrom = (node: PlanNode, table: string): number =>
  Math.max(node['Relation Name'] === table ? (node['Actual Rows'] ?? 0) : 0, ...(node.Plans ?? []).map((child) => mostRowsFrom(child, table)));

it("a put's unique-key check reads only the keys it asks for, in the generic plan of a new database", async () => {
  const url = await createTestDatabase(inject('postgresUrl'));
  const db = await openPostgres(url);
  await migrate(db);
  await db.close();
  sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql.unsafe('set plan_cache_mode = force_generic_plan');
  await sql.unsafe(`prepare put(text, text, integer, text, bytea, text[], text[], text, text[], text[], float8, float8) as ${checkedWriteSql('blacklist_records')}`);
  // 2,000 records of the company, each with its identity and match keys, written as a put writes them.
  await sql.unsafe(`insert into blacklist_records (id, company, size, data) select 'blk_' || n, $1, 100, '{}' from generate_series(1, 2000) n`, [company]);
  await sql.unsafe(`insert into blacklist_records_keys (company, name, key, id) select $1, k, k || n, 'blk_' || n from generate_series(1, 2000) n, unnest(array['identity', 'match']) k`, [company]);
  const put = (n: string) =>
    sql!.unsafe(`explain (analyze, format json) execute put('blk_new${n}', '${company}', 100, '{}', null, array['identity', 'match'], array['identity-new${n}', 'match-new${n}'], 'blacklist', array['identity'], array['identity-new${n}'], null, null)`);
  const [{ 'QUERY PLAN': [plan] }] = (await put('1')) as unknown as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }];
  expect(mostRowsFrom(plan.Plan, 'blacklist_records_keys')).toBeLessThanOrEqual(2);
  // A taken identity is still found.
  const [{ 'QUERY PLAN': [again] }] = (await sql.unsafe(`explain (analyze, format json) execute put('blk_other', '${company}', 100, '{}', null, array['identity'], array['identity7'], 'blacklist', array['identity'], array['identity7'], null, null)`)) as unknown as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }];
  expect(mostRowsFrom(again.Plan, 'blacklist_records_keys')).toBeLessThanOrEqual(2);
  const [row] = await sql.unsafe(`execute put('blk_other2', '${company}', 100, '{}', null, array['identity'], array['identity7'], 'blacklist', array['identity'], array['identity7'], null, null)`);
  expect(row).toMatchObject({ clash: 'identity', written: false });
}, 60_000);
