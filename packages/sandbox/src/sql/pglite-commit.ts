/**
 * The PGlite mirror's usual commit, new records only, as one message of SQL text: one prepared statement
 * per kind of record (its rows, their keys and its company usage), each an EXECUTE with literal arrays.
 *
 * Why: PGlite's `query` with parameters is six protocol messages into WebAssembly (parse, describe the
 * statement, bind, describe the portal, execute, sync), and parses and plans its text every time; the
 * mirror's insert (two CTEs over unnest) costs more to plan than to run. Measured in-process (load 24,
 * `/tmp` micro-bench, docs/benchmarks.md): 1.25 to 1.6 ms of CPU a commit of 10 new records through
 * `query`, 0.7 to 0.9 ms as EXECUTEs of statements prepared once; 1.3 to 2.4 ms against 0.37 to 0.47 ms
 * for one record.
 *
 * They write what store.ts's `putBatch` for new records (its `fresh` insert) and `usageTally` write,
 * except that nothing has `on conflict ... do nothing`: a row that is on disk after all (kept from before
 * lower limits, not served) or a key taken fails the whole commit, and the caller writes it again
 * statement by statement, which handles every case and names every error.
 */
import type { CollectionOptions } from '../store.js';
import { tableOf } from './store.js';
import type { Database } from './database.js';
import { workerChains } from './pglite-worker.js';

export type FreshPut = { name: keyof typeof tableOf; company: string; id: string; record: unknown };

/** As store.ts's `safe`: PostgreSQL text cannot hold U+0000, so it and the escape character are escaped. */
const safe = (text: string) => (/[\u0000\u0001]/.test(text) ? text.replace(/[\u0000\u0001]/g, (c) => (c === '\u0000' ? '\u0001\u0002' : '\u0001\u0001')) : text);

/** A string literal (standard_conforming_strings is on in every supported PostgreSQL: only quotes double). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const textArray = (values: readonly string[]) => (values.length ? `array[${values.map(literal).join(',')}]::text[]` : `'{}'::text[]`);

const writeName = (table: string) => `idv_mirror_write_${table}`;

/**
 * One statement per kind of record: its rows, their index keys and the company usage of that kind.
 * One statement, not an insert and a usage upsert: in PGlite each statement of a message costs about
 * 50 µs of its own (portal, snapshot, the protocol back to JavaScript), more than a row. The keys are
 * a plain insert, without the `on conflict do nothing` of store.ts (a speculative insert: the arbiter
 * indexes looked up first and a confirmation record in the write-ahead log per row), and without a
 * join to the inserted rows: `writeFreshPuts` drops a record's repeated keys itself, and a key that is
 * taken after all (a unique key, a row on disk that memory does not serve) fails the whole statement
 * and the mirror writes the group again statement by statement, which names the error. Measured in
 * process (load 10, 200 commits a variant, median of 6): 684 -> 535 µs of CPU a commit of 10 new
 * records, 271 -> 163 µs for one.
 */
const writeStatement = (collection: string, table: string) =>
  `prepare ${writeName(table)} (text[], text[], integer[], text[], text[], text[], text[], text[], text[], integer[], bigint[]) as
   with record as (
     insert into ${table} (id, company, size, data, bytes)
     select id, company, size, data::json, null from unnest($1, $2, $3, $4) with ordinality as i(id, company, size, data, n) order by n
   ), usage as (
     insert into company_usage (company, collection, records, bytes)
     select company, ${literal(collection)}, records, bytes from unnest($9, $10, $11) as u(company, records, bytes)
     on conflict (company, collection) do update set records = company_usage.records + excluded.records, bytes = company_usage.bytes + excluded.bytes
   )
   insert into ${table}_keys (company, name, key, id) select company, name, key, id from unnest($5, $6, $7, $8) as k(id, company, name, key)`;

/** The statements prepared on each database (a PGlite database is one session: they last until it closes). */
const preparedOn = new WeakMap<Database, Set<string>>();

/**
 * Prepares, once per database, what `writeFreshPuts` will execute for `puts`. Called outside the commit's
 * transaction: PGlite runs one statement at a time, and the transaction holds it.
 */
export async function prepareFreshPuts(db: Database, puts: readonly FreshPut[]): Promise<void> {
  let prepared = preparedOn.get(db);
  if (!prepared) preparedOn.set(db, (prepared = new Set()));
  for (const collection of new Set(puts.map((put) => put.name))) {
    const name = writeName(tableOf[collection]);
    if (prepared.has(name)) continue;
    try {
      await db.query(writeStatement(collection, tableOf[collection]));
    } catch (error) {
      // Prepared already through another `Database` object on the same session.
      if ((error as { code?: string }).code !== '42P05') throw error;
    }
    prepared.add(name);
  }
}

/**
 * The SQL text that writes `puts` (new records, none with file bytes, distinct IDs) with their usage, once
 * `prepareFreshPuts` has prepared them: an EXECUTE per kind of record, values as literal arrays.
 */
export function freshPutsText(puts: readonly FreshPut[], specs: Record<string, CollectionOptions<unknown>>): string {
  type Columns = { ids: string[]; companies: string[]; sizes: number[]; datas: string[]; keyIds: string[]; keyCompanies: string[]; keyNames: string[]; keys: string[]; usage: Map<string, { records: number; bytes: number }> };
  const byCollection = new Map<FreshPut['name'], Columns>();
  for (const { name, company, id, record } of puts) {
    const { sizeOf = () => 0, indexes = {} } = specs[name]!;
    let columns = byCollection.get(name);
    if (!columns) byCollection.set(name, (columns = { ids: [], companies: [], sizes: [], datas: [], keyIds: [], keyCompanies: [], keyNames: [], keys: [], usage: new Map() }));
    const size = sizeOf(record);
    if (!Number.isSafeInteger(size)) throw new Error(`a record's size is not a whole number: ${size}`);
    const safeId = safe(id);
    columns.ids.push(safeId);
    columns.companies.push(company);
    columns.sizes.push(size);
    columns.datas.push(JSON.stringify(record));
    for (const index of Object.keys(indexes)) {
      const found = indexes[index]!(record);
      // A key twice in one record's index (a group listing a member twice) is one row: the insert has no
      // `on conflict` to drop it.
      for (const key of found.length > 1 ? new Set(found) : found) {
        columns.keyIds.push(safeId);
        columns.keyCompanies.push(company);
        columns.keyNames.push(index);
        columns.keys.push(safe(key));
      }
    }
    const sum = columns.usage.get(company);
    if (sum) {
      sum.records++;
      sum.bytes += size;
    } else columns.usage.set(company, { records: 1, bytes: size });
  }
  const statements: string[] = [];
  for (const [name, c] of byCollection) {
    const usage = [...c.usage];
    statements.push(
      `execute ${writeName(tableOf[name])}(${textArray(c.ids)}, ${textArray(c.companies)}, array[${c.sizes.join(',')}]::integer[], ${textArray(c.datas)}, ` +
        `${textArray(c.keyIds)}, ${textArray(c.keyCompanies)}, ${textArray(c.keyNames)}, ${textArray(c.keys)}, ` +
        `${textArray(usage.map(([company]) => company))}, array[${usage.map(([, u]) => u.records).join(',')}]::integer[], array[${usage.map(([, u]) => u.bytes).join(',')}]::bigint[])`,
    );
  }
  return statements.join(';\n');
}

/**
 * Writes `puts` (new records, none with file bytes, distinct IDs) with their usage, once
 * `prepareFreshPuts` has prepared them, as one message of statements: PostgreSQL runs such a message
 * (the simple query protocol, no BEGIN in it) as one transaction, committed when its last statement
 * ends, rolled back whole when one fails, so this throws and nothing is written.
 */
export async function writeFreshPuts(db: Database, puts: readonly FreshPut[], specs: Record<string, CollectionOptions<unknown>>): Promise<void> {
  await db.query(freshPutsText(puts, specs));
}

/**
 * Sends commits (messages of statements, one transaction each) in order; `afterPrevious`: written only
 * if the previous one sent this way was (otherwise it rejects and writes nothing). `depth` is how many
 * the mirror keeps in flight: with PGlite in a worker thread (pglite-worker.ts) the next commit is posted
 * while one is written, so the worker goes from one to the next without waiting for the main thread;
 * in this thread a statement holds the thread anyway, and one at a time keeps the answers prompt.
 */
export type CommitChain = { send: (text: string, afterPrevious: boolean) => Promise<void>; depth: number };

export function commitChain(db: Database): CommitChain {
  const native = workerChains.get(db);
  if (native) return { send: native, depth: 2 };
  let last: Promise<boolean> = Promise.resolve(true);
  return {
    send(text, afterPrevious) {
      const previous = last;
      const written = afterPrevious
        ? previous.then(async (ok) => {
            if (!ok) throw new Error('not written: the commit before it failed');
            await db.query(text);
          })
        : db.query(text).then(() => undefined);
      last = written.then(
        () => true,
        () => false,
      );
      return written;
    },
    depth: 1,
  };
}
