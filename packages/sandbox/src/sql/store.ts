/**
 * The SQL store: the Collection interface of ../store.ts over a `Database` (database.ts), one
 * implementation for PGlite and PostgreSQL, which run the same statements. Schema: migrations.ts.
 *
 * Atomicity: `transaction(company, work)` is one database transaction that first takes an advisory
 * transaction lock on the company (`pg_advisory_xact_lock`), so a check and its write are atomic across
 * every instance sharing the database, and a throw rolls back everything the request wrote. The unique
 * indexes of migration 2 hold the cross-instance rules even for a write that skipped the lock.
 * A write outside a transaction (a test, a script) opens its own.
 *
 * Records are stored as json text (as JSON.stringify wrote it); a file's bytes (a Uint8Array field named `bytes`) go to a bytea column.
 * Reads return new objects: a handler that changes one puts it back (as with memory).
 */
import { StoreFull } from '../errors.js';
import type { Limits } from '../limits.js';
import { collectionNames, collectionSpecs, type Collections, type State } from '../state.js';
import { Duplicate, type Collection, type CollectionOptions } from '../store.js';
import type { Database } from './database.js';
import { groupCommit, type GroupCommitOptions, type WholeBatchable } from './group-commit.js';
import { lockClass, migrate } from './migrations.js';
import { plannedEachRun } from './planned-each-run.js';

/** The table of each kind of record (names chosen to read well in SQL: `groups` is a keyword). */
export const tableOf: Record<keyof Collections, string> = {
  sessions: 'sessions',
  blacklist: 'blacklist_records',
  users: 'users',
  groups: 'user_groups',
  monitoring: 'monitoring_queries',
  files: 'files',
};

type Row = { data: string; bytes: Uint8Array | null };

/**
 * Several pages of one company's records in one statement (`page`): $1 the company, $2 and $3 each page's
 * offset and limit, $4 the collection (its total, read once). A row per record, numbered by its page
 * (`n`, from 1), and a row with no record for an empty page. Each page is its own lateral read of the
 * (company, seq) index: planned for its values each run (planned-each-run.ts), since a generic plan made
 * while the table was empty sorted all of the company's records for every page.
 */
export const pagesSql = (table: string): string =>
  `${plannedEachRun}select (select records from company_usage where company = $1 and collection = $4) as total, q.n::integer as n, p.data, p.bytes
   from unnest($2::bigint[], $3::bigint[]) with ordinality as q(off, lim, n)
   left join lateral (select data::text as data, bytes, seq from ${table} where company = $1 order by seq offset q.off limit q.lim) as p on true
   order by q.n, p.seq`;

/**
 * PostgreSQL text holds no NUL character, which a request may send in any string: an ID or index key
 * spells U+0000 as U+0001 U+0002 and U+0001 as U+0001 U+0001 (distinct keys stay distinct). Records go
 * to a `json` column, which keeps the JSON text as written: key order, and NUL as its escape.
 */
/** The inverse of `safe`: an ID as the caller gave it. */
export const unsafe = (text: string): string => (text.includes('\u0001') ? text.replace(/\u0001([\u0001\u0002])/g, (_, c: string) => (c === '\u0002' ? '\u0000' : '\u0001')) : text);
const safe = (text: string) => (/[\u0000\u0001]/.test(text) ? text.replace(/[\u0000\u0001]/g, (c) => (c === '\u0000' ? '\u0001\u0002' : '\u0001\u0001')) : text);

const encode = (record: unknown): { data: string; bytes: Uint8Array | null } => {
  const { bytes, ...rest } = record as Record<string, unknown>;
  return bytes instanceof Uint8Array ? { data: JSON.stringify(rest), bytes } : { data: JSON.stringify(record), bytes: null };
};
/**
 * One statement that writes a record: the record, its keys (stale ones out, new ones in: unchanged ones
 * stay, so nothing conflicts within the statement), and the company's usage (`usage`: the records and
 * bytes it adds, as SQL). Parameters: $1 id, $2 company, $3 size, $4 data, $5 bytes, $6 index names,
 * $7 keys, $8 collection. A PGlite statement costs a millisecond or more on a loaded machine.
 */
/**
 * One record's write: the row, its index keys, and the company's usage (`usage`: the records and bytes
 * it adds). With `tallied`, usage is not written but returned (records, bytes) for the caller to add up:
 * a group commit updates each usage row once, not once per write (every update of one row in one
 * transaction leaves a version that the next update walks past).
 */
// Stryker disable next-line StringLiteral: every caller passes `before`
const writeRecordSql = (table: string, usage: string, before = '', tallied = false, checked = false) => {
  // Checked (checkedWriteSql): every write only when the row `ok` of the checks exists.
  const gate = checked ? 'and exists (select 1 from ok)' : '';
  return `with ${before}
   record as (
     insert into ${table} (id, company, size, data, bytes) select $1::text, $2::text, $3::integer, $4::text::json, $5::bytea ${checked ? 'from ok' : ''}
     on conflict (id) do update set size = excluded.size, data = excluded.data, bytes = excluded.bytes
   ),
   stale as (
     delete from ${table}_keys k where k.id = $1 ${gate}
     and not exists (select 1 from unnest($6::text[], $7::text[]) as u(name, key) where u.name = k.name and u.key = k.key)
   ),
   fresh as (
     insert into ${table}_keys (company, name, key, id) select $2, name, key, $1 from unnest($6::text[], $7::text[]) as u(name, key) where true ${gate}
     on conflict (company, name, key, id) do nothing
   ),
   ${tallied ? `usage (records, bytes, collection) as (select ${usage}, $8::text)` : `usage as (
     insert into company_usage (company, collection, records, bytes) ${checked ? `select $2, $8, ${usage} from ok` : `values ($2, $8, ${usage})`}
     on conflict (company, collection) do update set records = company_usage.records + excluded.records, bytes = company_usage.bytes + excluded.bytes
   )`}
   ${tallied ? 'select records, bytes from usage' : checked ? 'select owner, old_size, records, bytes, clash, exists (select 1 from ok) as written from state' : 'select 1'}`;
};

/**
 * `put`'s statement: the checks (the ID's owner, the company's records and bytes, a unique key held by
 * another record) and, only when they pass, the write of writeRecordSql; it returns what the checks read
 * and whether it wrote. Parameters: those of writeRecordSql, then $9 and $10 the unique index names and
 * keys, $11 the most records per company and $12 the most bytes (null: no limit).
 *
 * The unique-key check looks each key up by itself (a lateral subquery with a limit, which the planner
 * cannot turn into a join): PostgreSQL keeps a generic plan of a prepared statement after five runs, and
 * for a join with the keys' array it planned, on a table still small and never analysed (a new
 * database), a hash join over ALL of the company's keys, kept as the table grew: each add read every key
 * the company had (1,530 rows at 760 records), 0.9 ms of PostgreSQL's time per add and growing.
 */
export const checkedWriteSql = (table: string): string =>
  writeRecordSql(
    table,
    'case when ok.owner is null then 1 else 0 end, ok.delta',
    `state as (
       select
         (select company from ${table} where id = $1) as owner,
         (select size from ${table} where id = $1) as old_size,
         (select records from company_usage where company = $2 and collection = $8) as records,
         (select sum(bytes) from company_usage where company = $2) as bytes,
         (select c.name from unnest($9::text[], $10::text[]) as u(name, key)
            cross join lateral (select k.name from ${table}_keys k where k.company = $2 and k.name = u.name and k.key = u.key and k.id <> $1 limit 1) as c
            limit 1) as clash
     ),
     ok as (
       select owner, $3::integer - coalesce(old_size, 0) as delta from state
       where (owner is null or owner = $2)
         and (owner is not null or $11::float8 is null or coalesce(records, 0) < $11::float8)
         and clash is null
         and ($3::integer - coalesce(old_size, 0) <= 0 or $12::float8 is null or coalesce(bytes, 0) + $3::integer - coalesce(old_size, 0) <= $12::float8)
     ),`,
    false,
    true,
  );

/**
 * A run of new records of one company in ONE statement (a group commit's adds): written only when every
 * check passes for all of them at once: no ID is stored, no unique key is held, the records and bytes
 * of all fit. Then the outcome is what `put` one by one would give (each is new, so each passes the same
 * checks with the ones before it counted). Otherwise nothing is written and `written` is false: the
 * caller puts them one by one, which answers each exactly. Parameters: $1 IDs, $2 sizes, $3 data, $4
 * company, $5 collection, $6 / $7 / $8 every index key's name, key and record ID, $9 / $10 the unique
 * keys' names and keys, $11 the most records, $12 the most bytes (null: no limit), $13 how many, $14 the
 * sum of the sizes.
 */
export const manyNewSql = (table: string): string => `with
   state as (
     select
       -- Each ID looked up by itself: "id = any(the IDs)" was planned, on a table still empty, as a scan of
       -- the whole table, kept as the table grew (0.9 ms a statement at 5,000 records in the bench).
       exists (select 1 from unnest($1::text[]) as i(id) cross join lateral (select 1 from ${table} t where t.id = i.id limit 1) as c) as taken,
       (select records from company_usage where company = $4 and collection = $5) as records,
       (select sum(bytes) from company_usage where company = $4) as bytes,
       exists (select 1 from unnest($9::text[], $10::text[]) as u(name, key)
         cross join lateral (select 1 from ${table}_keys k where k.company = $4 and k.name = u.name and k.key = u.key limit 1) as c) as clash
   ),
   ok as (
     select 1 from state
     where not taken and not clash
       and ($11::float8 is null or coalesce(records, 0) + $13::integer <= $11::float8)
       and ($14::bigint <= 0 or $12::float8 is null or coalesce(bytes, 0) + $14::bigint <= $12::float8)
   ),
   record as (
     insert into ${table} (id, company, size, data, bytes)
     select i.id, $4, i.size, d.data, null
     from unnest($1::text[], $2::integer[]) with ordinality as i(id, size, n) join json_array_elements($3::text::json) with ordinality as d(data, n) using (n)
     where exists (select 1 from ok) order by n
   ),
   fresh as (
     -- No ON CONFLICT: the IDs are new (taken above) and each record's keys come once (putMany), so no key
     -- row can conflict, and a plain insert spares the speculative insertion into three indexes per key
     -- (the keys were half of the statement's time in PostgreSQL). One that did would fail the statement,
     -- and the group would write its records one by one.
     insert into ${table}_keys (company, name, key, id) select $4, k.name, k.key, k.id from unnest($6::text[], $7::text[], $8::text[]) as k(name, key, id)
     where exists (select 1 from ok)
   ),
   usage as (
     insert into company_usage (company, collection, records, bytes) select $4, $5, $13, $14 from ok
     on conflict (company, collection) do update set records = company_usage.records + excluded.records, bytes = company_usage.bytes + excluded.bytes
   )
   select exists (select 1 from ok) as written`;

export const decode = <T>(row: Row): T => {
  const data = JSON.parse(row.data);
  return (row.bytes ? { ...data, bytes: new Uint8Array(row.bytes) } : data) as T;
};

/** Whether a record's key `i` was given before by the same index (a record has few keys: a scan allocates nothing). */
const givenBefore = (item: { names: string[]; keys: string[] }, i: number): boolean => {
  for (let j = item.keys.indexOf(item.keys[i]!); j < i; j = item.keys.indexOf(item.keys[i]!, j + 1)) if (item.names[j] === item.names[i]) return true;
  return false;
};

/** PostgreSQL's unique_violation. */
const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/**
 * Holds the company's writes until this transaction ends, on every instance sharing the database.
 * PGlite runs one transaction at a time in its one process (its directory is locked to that process,
 * store-choice.ts), so there the transaction itself is the lock and the statement is saved.
 */
const lockCompany = async (tx: Database, company: string) => {
  if (tx.kind !== 'pglite') await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [lockClass.companyWrites, company]);
};

type Context = {
  db: Database;
  /** True inside `transaction`: the company's lock is held. */
  locked: boolean;
  limits: Limits;
  ready: () => Promise<void>;
  /** Runs `work` under the company's lock in a transaction (a group commit's on PostgreSQL). */
  exclusive?: <R>(company: string, work: (tx: Database) => Promise<R>) => Promise<R>;
};

function sqlCollection<T>(name: keyof Collections, options: CollectionOptions<T>, context: Context): Collection<T> {
  const table = tableOf[name];
  // Stryker disable next-line ArrowFunction,ArrayDeclaration: every collection has a `sizeOf`; a `unique` default matches no index of a kind without unique keys
  const { maxPerCompany = Infinity, sizeOf = () => 0, indexes = {}, unique = [] } = options;
  const indexNames = Object.keys(indexes);
  const { db, ready } = context;
  const columns = 'data::text as data, bytes';

  /**
   * Blacklist records that `page` read, by their stored text: a page read again whose rows have the same
   * text gives the same objects, so the list handler's page of bytes made from them is reused
   * (handlers/blacklist.ts `pageBytes`: a client that polls a list; issue 15's bench lists one page over
   * and over) instead of every row being parsed, shown and serialised again. The query still runs each
   * time, so a change made through any instance is read at once. Only for blacklist records: no operation
   * changes a stored one (a record added again is a new record), and nothing changes a listed one.
   */
  let pageObjects = name === 'blacklist' ? new Map<string, T>() : undefined;
  /** Counts asked for in this turn, by company, not yet answered (see `page`). */
  const countsWaiting = new Map<string, { resolve: (n: number) => void; reject: (error: unknown) => void; also: { resolve: (n: number) => void; reject: (error: unknown) => void }[] }>();
  const countNow = async (company: string) => {
    await ready();
    const [row] = await db.query<{ records: number }>(`select records from company_usage where company = $1 and collection = $2`, [company, name]);
    return row?.records ?? 0;
  };
  type PageWaiting = { offset: number; limit: number; counting: { resolve: (n: number) => void; reject: (error: unknown) => void } | undefined; resolve: (rows: T[]) => void; reject: (error: unknown) => void };
  /**
   * Pages of a company asked for outside a transaction and not yet sent. Those asked in one turn of the
   * event loop (the listings a rate-limit batch lets through come in one) are read by ONE statement (one
   * round trip, one snapshot for all: a listing is two round trips, this and the rate limit's, and each
   * costs both processes more CPU than the statement's own work; issue 15's bench). A page is never
   * answered by a query sent before it was asked for, so it reads every write answered before. Not held
   * back while an earlier batch runs: batches go on the pool's connections side by side, so one slow
   * answer does not hold up the company's next listings (p99).
   */
  const pagesWaiting = new Map<string, PageWaiting[]>();
  /** The pages of `batch`, each as it reads alone (same pairs of offset and limit read once), in one statement. */
  const pagesNow = async (company: string, batch: PageWaiting[]): Promise<T[][]> => {
    const pairs = new Map<string, number>();
    const offsets: number[] = [];
    const limits: number[] = [];
    const which = batch.map(({ offset, limit }) => {
      const pair = `${offset} ${limit}`;
      let at = pairs.get(pair);
      if (at === undefined) {
        pairs.set(pair, (at = offsets.length));
        offsets.push(offset);
        limits.push(limit);
      }
      return at;
    });
    await ready();
    let found: (Row & { total: number | null; n: number })[];
    try {
      // Each page looked up by itself (a lateral subquery on the company's index), the total once.
      found = await db.query<Row & { total: number | null; n: number }>(
        pagesSql(table),
        [company, offsets, limits, name],
      );
    } catch (error) {
      for (const { counting } of batch) counting?.reject(error);
      throw error;
    }
    // Stryker disable next-line OptionalChaining: the statement answers at least one row for each page asked
    const total = found[0]?.total ?? 0;
    for (const { counting } of batch) counting?.resolve(total);
    const pages: Row[][] = offsets.map(() => []);
    for (const row of found) if (row.data !== null) pages[row.n - 1]!.push(row);
    // Kept for the pages of the last moments only: a few pages' rows, however many companies list.
    if (pageObjects && pageObjects.size > 1_000) pageObjects = new Map();
    // Each caller its own array; records new objects for each (a handler may change one and put it back),
    // but blacklist records, which nothing changes, the same object for the same stored text.
    return which.map((at) =>
      pages[at]!.map((row) => {
        if (!pageObjects || row.bytes) return decode<T>(row);
        let record = pageObjects.get(row.data);
        if (record === undefined) pageObjects.set(row.data, (record = decode<T>(row)));
        return record;
      }),
    );
  };
  const rows = async (text: string, params: unknown[]) => {
    await ready();
    return (await db.query<Row>(text, params)).map((row) => decode<T>(row));
  };
  /** Runs a write under the company's lock: in the caller's transaction, or in one of its own. */
  const write = async <R>(company: string, work: (tx: Database) => Promise<R>): Promise<R> => {
    await ready();
    if (context.locked) return work(db);
    if (context.exclusive) return context.exclusive(company, work);
    // Stryker disable next-line BlockStatement: not reached: the root collections have `exclusive`, a transaction's are `locked`
    return db.transaction(async (tx) => {
      await lockCompany(tx, company);
      return work(tx);
    });
  };

  type Prepared = { id: string; names: string[]; keys: string[]; size: number; data: string; bytes: Uint8Array | null };
  const prepare = (id: string, record: T): Prepared => {
    const names: string[] = [];
    const keys: string[] = [];
    for (const index of indexNames) {
      for (const key of indexes[index]!(record)) {
        names.push(index);
        keys.push(safe(key));
      }
    }
    return { id, names, keys, size: sizeOf(record), ...encode(record) };
  };

  /** New records of one company in one statement (manyNewSql), or undefined: put them one by one. */
  async function putMany(tx: Database, company: string, items: Prepared[]): Promise<undefined[] | undefined> {
    const ids = new Set<string>();
    const uniqueSeen = new Set<string>();
    const keyNames: string[] = [];
    const keys: string[] = [];
    const keyIds: string[] = [];
    // Stryker disable next-line ArrayDeclaration: an extra unique name pairs with no key (unnest pads with null): no clash
    const uniqueNames: string[] = [];
    // Stryker disable next-line ArrayDeclaration: an extra unique key pairs with no name: no clash
    const uniqueKeys: string[] = [];
    let total = 0;
    for (const item of items) {
      // Two of the run with one ID or one unique key: only one by one says which is refused.
      // Stryker disable next-line LogicalOperator: a run given to the statement that it should not take is refused by the unique index, and the group commit writes each alone
      if (item.bytes || ids.has(item.id)) return undefined;
      ids.add(item.id);
      total += item.size;
      item.names.forEach((name, i) => {
        // A key an index gives twice (a group that lists a member twice) is one row: the insert has no ON CONFLICT.
        if (givenBefore(item, i)) return;
        keyNames.push(name);
        keys.push(item.keys[i]!);
        keyIds.push(item.id);
        // Stryker disable next-line BooleanLiteral,ConditionalExpression: the same: the statement declines or PostgreSQL refuses it, and each is written alone with the same answer
        if (!unique.includes(name)) return;
        const both = `${name}\u0000${item.keys[i]}`;
        if (uniqueSeen.has(both)) total = NaN;
        uniqueSeen.add(both);
        uniqueNames.push(name);
        uniqueKeys.push(item.keys[i]!);
      });
    }
    if (Number.isNaN(total)) return undefined;
    const [row] = await tx.query<{ written: boolean }>(manyNewSql(table), [
      [...ids],
      items.map((item) => item.size),
      // The records as ONE JSON array, not an array of texts that the driver escapes and the server parses
      // element by element (and then each text again as JSON); a `json` value keeps each element's text.
      `[${items.map((item) => item.data).join(',')}]`,
      company,
      name,
      keyNames,
      keys,
      keyIds,
      uniqueNames,
      uniqueKeys,
      Number.isFinite(maxPerCompany) ? maxPerCompany : null,
      Number.isFinite(context.limits.maxBytesPerCompany) ? context.limits.maxBytesPerCompany : null,
      items.length,
      total,
    ]);
    // Stryker disable next-line OptionalChaining: the statement always answers one row
    return row?.written ? items.map(() => undefined) : undefined;
  }

  async function put(tx: Database, company: string, prepared: Prepared) {
    const { id, names, keys, size, data, bytes } = prepared;
    const uniqueAt = names.map((index) => unique.includes(index));
    // One statement (checkedWriteSql): the checks, and the write only when they pass, so a write is one
    // round trip (it was two: the checks, then the write).
    let state: { owner: string | null; old_size: number | null; records: number | null; bytes: string | number | null; clash: string | null; written: boolean } | undefined;
    try {
      [state] = await tx.query<NonNullable<typeof state>>(checkedWriteSql(table), [
        id,
        company,
        size,
        data,
        bytes,
        names,
        keys,
        name,
        names.filter((_, i) => uniqueAt[i]),
        keys.filter((_, i) => uniqueAt[i]),
        Number.isFinite(maxPerCompany) ? maxPerCompany : null,
        Number.isFinite(context.limits.maxBytesPerCompany) ? context.limits.maxBytesPerCompany : null,
      ]);
    } catch (error) {
      // Stryker disable next-line StringLiteral: a unique violation comes only from a kind with unique keys, so `unique[0]` is set.
      if (isUniqueViolation(error)) throw new Duplicate(unique[0] ?? 'key');
      throw error;
    }
    if (state!.written) return;
    // Refused: which check, in the order memory checks them.
    // IDs are random and never repeat; a seeded sandbox restarted on a kept database could repeat one.
    if (state!.owner !== null && state!.owner !== company) throw new Error(`ID ${id} is another company's record: do not use --seed with a kept database`);
    if (state!.owner === null && (state!.records ?? 0) >= maxPerCompany) throw StoreFull.instance;
    if (state!.clash !== null) throw new Duplicate(state!.clash);
    throw StoreFull.instance;
  }

  async function remove(tx: Database, company: string, id: string): Promise<boolean> {
    const gone = await tx.query<{ size: number }>(
      `with gone as (delete from ${table} where id = $1 and company = $2 returning size),
       keys as (delete from ${table}_keys where id = $1 and exists (select 1 from gone)),
       usage as (
         update company_usage set records = records - 1, bytes = bytes - (select size from gone)
         where company = $2 and collection = $3 and exists (select 1 from gone)
       )
       select size from gone`,
      [id, company, name],
    );
    return gone.length > 0;
  }
  return {
    get: async (company, id) => (await rows(`select ${columns} from ${table} where id = $1 and company = $2`, [safe(id), company]))[0],
    ownerOf: async (id) => {
      await ready();
      return (await db.query<{ company: string }>(`select company from ${table} where id = $1`, [safe(id)]))[0]?.company;
    },
    put: (company, id, record) => {
      const prepared = prepare(safe(id), record);
      const alone = (tx: Database) => put(tx, company, prepared);
      if (prepared.bytes) return write(company, alone);
      // In a group commit, a record may wait to be written with the next transactions' records in one
      // statement (group-commit.ts); the caller gets the same outcome as from `alone`.
      // Outside a transaction the put is its transaction's only statement (`whole`): a group of such puts
      // sends its COMMIT without waiting for the statement's answer (group-commit.ts `commitAhead`).
      const batch: WholeBatchable<Prepared> = { key: `${table}\u0000${company}`, item: prepared, many: (tx, items) => putMany(tx, company, items), whole: !context.locked };
      return write(company, (tx) => (tx.park ? tx.park(batch, () => alone(tx)) : alone(tx)));
    },
    delete: (company, id) => write(company, (tx) => remove(tx, company, safe(id))),
    list: (company) => rows(`select ${columns} from ${table} where company = $1 order by seq`, [company]),
    page: (company, offset, limit) => {
      // A count of the company asked for in the same turn (a listing's total, as list-blacklist-records
      // asks: count and page at once) is answered by the page's query: one round trip, one snapshot.
      const counting = countsWaiting.get(company);
      countsWaiting.delete(company);
      if (context.locked) return pagesNow(company, [{ offset, limit, counting, resolve: () => {}, reject: () => {} }]).then(([rows]) => rows!);
      return new Promise<T[]>((resolve, reject) => {
        const waiting = { offset, limit, counting, resolve, reject };
        const entry = pagesWaiting.get(company);
        if (entry) return void entry.push(waiting);
        const fresh = [waiting];
        pagesWaiting.set(company, fresh);
        // The rest of this turn's pages of the company join it; then it is sent (see `pagesWaiting`).
        setImmediate(() => {
          pagesWaiting.delete(company);
          pagesNow(company, fresh).then(
            (pages) => fresh.forEach((one, i) => one.resolve(pages[i]!)),
            (error) => fresh.forEach((one) => one.reject(error)),
          );
        });
      });
    },
    count: (company) =>
      new Promise<number>((resolve, reject) => {
        if (context.locked) return void countNow(company).then(resolve, reject);
        // Waits for the rest of this turn: a page of the company asked for meanwhile answers it.
        const waiting = countsWaiting.get(company);
        if (waiting) return void waiting.also.push({ resolve, reject });
        const entry = { also: [] as { resolve: (n: number) => void; reject: (error: unknown) => void }[], resolve: (n: number) => (resolve(n), entry.also.forEach((w) => w.resolve(n))), reject: (error: unknown) => (reject(error), entry.also.forEach((w) => w.reject(error))) };
        countsWaiting.set(company, entry);
        queueMicrotask(() => {
          if (countsWaiting.get(company) !== entry) return;
          countsWaiting.delete(company);
          countNow(company).then(entry.resolve, entry.reject);
        });
      }),
    find: (company, index, key) =>
      rows(`select r.data::text as data, r.bytes from ${table}_keys k join ${table} r on r.id = k.id where k.company = $1 and k.name = $2 and k.key = $3 order by r.seq`, [company, index, safe(key)]),
  };
}

function collectionsOn(context: Context): Collections {
  const specs = collectionSpecs(context.limits);
  return {
    sessions: sqlCollection('sessions', specs.sessions, context),
    blacklist: sqlCollection('blacklist', specs.blacklist, context),
    users: sqlCollection('users', specs.users, context),
    groups: sqlCollection('groups', specs.groups, context),
    monitoring: sqlCollection('monitoring', specs.monitoring, context),
    files: sqlCollection('files', specs.files, context),
  };
}

/**
 * Stores a record whose caps, budget and unique keys the caller checked (the PGlite mirror, exact in its
 * one process): one statement, where `put` takes two. The unique indexes still refuse a duplicate.
 */
export async function putChecked<T>(tx: Database, name: keyof Collections, options: CollectionOptions<T>, company: string, id: string, record: T, usage?: UsageTally): Promise<void> {
  const table = tableOf[name];
  // Stryker disable next-line ArrowFunction,ArrayDeclaration: every collection has a `sizeOf`; a `unique` default matches no index of a kind without unique keys
  const { sizeOf = () => 0, indexes = {}, unique = [] } = options;
  const names: string[] = [];
  const keys: string[] = [];
  for (const index of Object.keys(indexes)) {
    for (const key of indexes[index]!(record)) {
      names.push(index);
      keys.push(safe(key));
    }
  }
  const { data, bytes } = encode(record);
  try {
    const [added] = await tx.query<{ records: number; bytes: number }>(
      writeRecordSql(table, 'case when exists (select 1 from old) then 0 else 1 end, $3 - coalesce((select size from old), 0)', `old as (select size from ${table} where id = $1),`, usage !== undefined),
      [safe(id), company, sizeOf(record), data, bytes, names, keys, name],
    );
    if (usage && added) usage.add(company, name, Number(added.records), Number(added.bytes));
  } catch (error) {
    // Stryker disable next-line StringLiteral: a unique violation comes only from a kind with unique keys, so `unique[0]` is set
    if (isUniqueViolation(error)) throw new Duplicate(unique[0] ?? 'key');
    throw error;
  }
}

/** One record of `putBatch`. */
export type BatchRecord = { company: string; id: string; record: unknown };

/**
 * Stores records whose caps, budget and unique keys the caller checked (the PGlite mirror), several in
 * ONE statement: a PGlite statement costs far more than a row (parsing, planning and the protocol in
 * WebAssembly), so a group commit of a burst writes each kind's run of records at once. The IDs must be
 * distinct and the records without bytes (a file goes through `putChecked`); the usage is tallied.
 */
export async function putBatch(tx: Database, name: keyof Collections, options: CollectionOptions<unknown>, batch: readonly BatchRecord[], usage: UsageTally, { fresh = false }: { fresh?: boolean } = {}): Promise<void> {
  const table = tableOf[name];
  // Stryker disable next-line ArrowFunction,ArrayDeclaration: every collection has a `sizeOf`; a `unique` default matches no index of a kind without unique keys
  const { sizeOf = () => 0, indexes = {}, unique = [] } = options;
  const ids: string[] = [];
  const companies: string[] = [];
  const sizes: number[] = [];
  const datas: string[] = [];
  const keyIds: string[] = [];
  const keyCompanies: string[] = [];
  const keyNames: string[] = [];
  const keys: string[] = [];
  for (const { company, id, record } of batch) {
    ids.push(safe(id));
    companies.push(company);
    sizes.push(sizeOf(record));
    datas.push(JSON.stringify(record));
    for (const index of Object.keys(indexes)) {
      for (const key of indexes[index]!(record)) {
        keyIds.push(safe(id));
        keyCompanies.push(company);
        keyNames.push(index);
        keys.push(safe(key));
      }
    }
  }
  // Stryker disable next-line BlockStatement: without the fresh path the general statement writes and tallies the same rows
  if (fresh) {
    // The caller believes none of the IDs is stored (the mirror's memory holds none of them): a plain
    // insert, about a third of the statement below in PGlite. A row that is there after all (on disk, not
    // served: kept from before lower limits) is skipped here and written by the statement below.
    // Stryker disable next-line BlockStatement: the same
    try {
      const inserted = await tx.query<{ id: string; company: string; size: number }>(
        `with record as (
           insert into ${table} (id, company, size, data, bytes)
           select id, company, size, data::json, null from unnest($1::text[], $2::text[], $3::integer[], $4::text[]) with ordinality as i(id, company, size, data, n) order by n
           on conflict (id) do nothing
           returning id, company, size
         ),
         keys as (
           insert into ${table}_keys (company, name, key, id)
           select k.company, k.name, k.key, k.id from unnest($5::text[], $6::text[], $7::text[], $8::text[]) as k(id, company, name, key) join record r on r.id = k.id
           on conflict (company, name, key, id) do nothing
         )
         select id, company, size from record`,
        [ids, companies, sizes, datas, keyIds, keyCompanies, keyNames, keys],
      );
      for (const row of inserted) usage.add(row.company, name, 1, Number(row.size));
      if (inserted.length === batch.length) return;
      // Stryker disable next-line ArrowFunction: the second pass writes again, with the same data, rows the first inserted; they count as already there
      const done = new Set(inserted.map((row) => row.id));
      // Stryker disable next-line MethodExpression: the same
      return await putBatch(tx, name, options, batch.filter(({ id }) => !done.has(safe(id))), usage);
    } catch (error) {
      // Stryker disable next-line StringLiteral: a unique violation comes only from a kind with unique keys, so `unique[0]` is set
      if (isUniqueViolation(error)) throw new Duplicate(unique[0] ?? 'key');
      throw error;
    }
  }
  try {
    const added = await tx.query<{ company: string; records: number; bytes: number }>(
      `with input as (
         select * from unnest($1::text[], $2::text[], $3::integer[], $4::text[]) with ordinality as i(id, company, size, data, n)
       ),
       old as (select t.id, t.size from ${table} t join input i on i.id = t.id),
       keys_in as (select * from unnest($5::text[], $6::text[], $7::text[], $8::text[]) as k(id, company, name, key)),
       record as (
         insert into ${table} (id, company, size, data, bytes) select id, company, size, data::json, null from input order by n
         on conflict (id) do update set size = excluded.size, data = excluded.data, bytes = excluded.bytes
       ),
       stale as (
         delete from ${table}_keys k using input i where k.id = i.id
         and not exists (select 1 from keys_in n where n.id = k.id and n.name = k.name and n.key = k.key)
       ),
       fresh as (
         insert into ${table}_keys (company, name, key, id) select company, name, key, id from keys_in
         on conflict (company, name, key, id) do nothing
       )
       select i.company, count(*) filter (where o.id is null) as records, sum(i.size - coalesce(o.size, 0)) as bytes
       from input i left join old o on o.id = i.id group by i.company`,
      [ids, companies, sizes, datas, keyIds, keyCompanies, keyNames, keys],
    );
    for (const row of added) usage.add(row.company, name, Number(row.records), Number(row.bytes));
  } catch (error) {
    // Stryker disable next-line StringLiteral: a unique violation comes only from a kind with unique keys, so `unique[0]` is set
    if (isUniqueViolation(error)) throw new Duplicate(unique[0] ?? 'key');
    throw error;
  }
}

/** Usage that `putChecked` wrote no row for: `write(tx)` adds it up, one statement per company and kind. */
export type UsageTally = { add(company: string, collection: string, records: number, bytes: number): void; write(tx: Database): Promise<void> };

export function usageTally(): UsageTally {
  const sums = new Map<string, { company: string; collection: string; records: number; bytes: number }>();
  return {
    add(company, collection, records, bytes) {
      const key = `${company}\u0000${collection}`;
      const sum = sums.get(key) ?? { company, collection, records: 0, bytes: 0 };
      sum.records += records;
      sum.bytes += bytes;
      sums.set(key, sum);
    },
    async write(tx) {
      for (const { company, collection, records, bytes } of sums.values()) {
        await tx.query(
          `insert into company_usage (company, collection, records, bytes) values ($1, $2, $3, $4)
           on conflict (company, collection) do update set records = company_usage.records + excluded.records, bytes = company_usage.bytes + excluded.bytes`,
          [company, collection, records, bytes],
        );
      }
      sums.clear();
    },
  };
}

/** The collections inside an open transaction `tx` (the caller serialised the company): for the PGlite mirror's commits. */
// Stryker disable next-line BooleanLiteral: not `locked`: each write opens a nested transaction (a savepoint) in the caller's, with the same rows
export const sqlCollectionsIn = (tx: Database, limits: Limits): Collections => collectionsOn({ db: tx, locked: true, limits, ready: async () => {} });

/**
 * The sandbox's state in a PGlite or PostgreSQL database. Migrations run before the first statement
 * (call `migrate` first to see a failing one at start-up); the caller opened the database and closes it.
 */
export function sqlState(db: Database, limits: Limits, options: GroupCommitOptions = {}): State {
  let migrated: Promise<unknown> | undefined;
  const ready = async () => {
    await (migrated ??= migrate(db));
  };
  // PostgreSQL: a company's transactions waiting in this instance share one database transaction and one
  // commit (group-commit.ts). PGlite runs one transaction at a time in its process and has no flush to share.
  const grouped = db.kind === 'postgres' ? groupCommit(db, lockCompany, options) : undefined;
  const exclusive = <R>(company: string, work: (tx: Database) => Promise<R>): Promise<R> =>
    grouped
      ? grouped(company, work)
      : db.transaction(async (tx) => {
          await lockCompany(tx, company);
          return work(tx);
        });
  const root = collectionsOn({ db, locked: false, limits, ready, exclusive });
  return {
    kind: db.kind,
    ...root,
    async transaction(company, work) {
      await ready();
      return exclusive(company, (tx) => work(collectionsOn({ db: tx, locked: true, limits, ready: async () => {} })));
    },
    async clear(company?: string) {
      await ready();
      await db.transaction(async (tx) => {
        if (company !== undefined) await lockCompany(tx, company);
        for (const name of collectionNames) {
          const table = tableOf[name];
          if (company === undefined) {
            await tx.query(`delete from ${table}_keys`);
            await tx.query(`delete from ${table}`);
          } else {
            await tx.query(`delete from ${table}_keys where company = $1`, [company]);
            await tx.query(`delete from ${table} where company = $1`, [company]);
          }
        }
        await (company === undefined ? tx.query('delete from company_usage') : tx.query('delete from company_usage where company = $1', [company]));
      });
    },
    async close() {},
  };
}
