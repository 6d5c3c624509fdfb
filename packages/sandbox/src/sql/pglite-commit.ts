/**
 * The PGlite mirror's usual commit, new records only, as one message of SQL text: a prepared insert per
 * kind of record and a prepared usage upsert per company and kind, each an EXECUTE with literal arrays.
 *
 * Why: PGlite's `query` with parameters is six protocol messages into WebAssembly (parse, describe the
 * statement, bind, describe the portal, execute, sync), and parses and plans its text every time; the
 * mirror's insert (two CTEs over unnest) costs more to plan than to run. Measured in-process (load 24,
 * `/tmp` micro-bench, docs/benchmarks.md): 1.25 to 1.6 ms of CPU a commit of 10 new records through
 * `query`, 0.7 to 0.9 ms as EXECUTEs of statements prepared once; 1.3 to 2.4 ms against 0.37 to 0.47 ms
 * for one record.
 *
 * The statements are the same as store.ts's `putBatch` for new records (its `fresh` insert) and
 * `usageTally`, except that the insert has no `on conflict (id) do nothing`: a row that is on disk after
 * all (kept from before lower limits, not served) fails the whole commit, and the caller writes it again
 * statement by statement, which handles every case and names every error.
 */
import type { CollectionOptions } from '../store.js';
import { tableOf } from './store.js';
import type { Database } from './database.js';

export type FreshPut = { name: keyof typeof tableOf; company: string; id: string; record: unknown };

/** As store.ts's `safe`: PostgreSQL text cannot hold U+0000, so it and the escape character are escaped. */
const safe = (text: string) => (/[\u0000\u0001]/.test(text) ? text.replace(/[\u0000\u0001]/g, (c) => (c === '\u0000' ? '\u0001\u0002' : '\u0001\u0001')) : text);

/** A string literal (standard_conforming_strings is on in every supported PostgreSQL: only quotes double). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const textArray = (values: readonly string[]) => (values.length ? `array[${values.map(literal).join(',')}]::text[]` : `'{}'::text[]`);

const insertName = (table: string) => `idv_mirror_insert_${table}`;
const usageName = 'idv_mirror_usage';

const insertStatement = (table: string) =>
  `prepare ${insertName(table)} (text[], text[], integer[], text[], text[], text[], text[], text[]) as
   with record as (
     insert into ${table} (id, company, size, data, bytes)
     select id, company, size, data::json, null from unnest($1, $2, $3, $4) with ordinality as i(id, company, size, data, n) order by n
     returning id
   )
   insert into ${table}_keys (company, name, key, id)
   select k.company, k.name, k.key, k.id from unnest($5, $6, $7, $8) as k(id, company, name, key) join record r on r.id = k.id
   on conflict (company, name, key, id) do nothing`;

const usageStatement = `prepare ${usageName} (text, text, integer, bigint) as
  insert into company_usage (company, collection, records, bytes) values ($1, $2, $3, $4)
  on conflict (company, collection) do update set records = company_usage.records + excluded.records, bytes = company_usage.bytes + excluded.bytes`;

/** The statements prepared on each database (a PGlite database is one session: they last until it closes). */
const preparedOn = new WeakMap<Database, Set<string>>();

/**
 * Prepares, once per database, what `writeFreshPuts` will execute for `puts`. Called outside the commit's
 * transaction: PGlite runs one statement at a time, and the transaction holds it.
 */
export async function prepareFreshPuts(db: Database, puts: readonly FreshPut[]): Promise<void> {
  let prepared = preparedOn.get(db);
  if (!prepared) preparedOn.set(db, (prepared = new Set()));
  for (const name of new Set([...puts.map((put) => tableOf[put.name]), usageName])) {
    if (prepared.has(name)) continue;
    try {
      await db.query(name === usageName ? usageStatement : insertStatement(name));
    } catch (error) {
      // Prepared already through another `Database` object on the same session.
      if ((error as { code?: string }).code !== '42P05') throw error;
    }
    prepared.add(name);
  }
}

/**
 * Writes `puts` (new records, none with file bytes, distinct IDs) with their usage, once
 * `prepareFreshPuts` has prepared them, as one message of statements: PostgreSQL runs such a message
 * (the simple query protocol, no BEGIN in it) as one transaction, committed when its last statement
 * ends, rolled back whole when one fails, so this throws and nothing is written.
 */
export async function writeFreshPuts(db: Database, puts: readonly FreshPut[], specs: Record<string, CollectionOptions<unknown>>): Promise<void> {
  type Columns = { ids: string[]; companies: string[]; sizes: number[]; datas: string[]; keyIds: string[]; keyCompanies: string[]; keyNames: string[]; keys: string[] };
  const byTable = new Map<string, Columns>();
  const usage = new Map<string, { company: string; collection: string; records: number; bytes: number }>();
  for (const { name, company, id, record } of puts) {
    const table = tableOf[name];
    const { sizeOf = () => 0, indexes = {} } = specs[name]!;
    let columns = byTable.get(table);
    if (!columns) byTable.set(table, (columns = { ids: [], companies: [], sizes: [], datas: [], keyIds: [], keyCompanies: [], keyNames: [], keys: [] }));
    const size = sizeOf(record);
    if (!Number.isSafeInteger(size)) throw new Error(`a record's size is not a whole number: ${size}`);
    columns.ids.push(safe(id));
    columns.companies.push(company);
    columns.sizes.push(size);
    columns.datas.push(JSON.stringify(record));
    for (const index of Object.keys(indexes)) {
      for (const key of indexes[index]!(record)) {
        columns.keyIds.push(safe(id));
        columns.keyCompanies.push(company);
        columns.keyNames.push(index);
        columns.keys.push(safe(key));
      }
    }
    const usageKey = `${company}\u0000${name}`;
    const sum = usage.get(usageKey) ?? { company, collection: name, records: 0, bytes: 0 };
    sum.records++;
    sum.bytes += size;
    usage.set(usageKey, sum);
  }
  const statements: string[] = [];
  for (const [table, c] of byTable) {
    statements.push(
      `execute ${insertName(table)}(${textArray(c.ids)}, ${textArray(c.companies)}, array[${c.sizes.join(',')}]::integer[], ${textArray(c.datas)}, ` +
        `${textArray(c.keyIds)}, ${textArray(c.keyCompanies)}, ${textArray(c.keyNames)}, ${textArray(c.keys)})`,
    );
  }
  for (const { company, collection, records, bytes } of usage.values()) statements.push(`execute ${usageName}(${literal(company)}, ${literal(collection)}, ${records}, ${bytes})`);
  await db.query(statements.join(';\n'));
}
