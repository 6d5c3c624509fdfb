// The request log in the database, for instances that share one PostgreSQL: each instance writes the
// requests it answered (as the ring keeps them: the first 16 KiB of each body, described when read), and
// every instance's console reads them all, newest first, and hears of others' requests by looking at the
// newest row four times a second while a console is open. Bounded: the rows beyond the latest `size` are
// deleted as new ones come. Writing never delays or fails a request: rows are written in batches after it
// is answered (at most every 100 ms, one statement each), and a failed write is dropped.
import type { Database } from '../sql/database.js';
import type { RequestLog } from './request-log.js';
import { describe, ringSize, type Raw, type RequestFilter, type RingEntry } from './request-ring.js';

/** Created on first use (our choice: the console's own table, outside the store's numbered migrations). */
const schema = [
  `create table if not exists console_requests (
     seq bigint generated always as identity primary key,
     company text,
     raw json not null,
     request_bytes bytea not null,
     response_bytes bytea not null
   )`,
  `create index if not exists console_requests_company on console_requests (company, seq)`,
  // A body of a few KiB (a page of records) makes a row longer than PostgreSQL keeps uncompressed: lz4
  // compresses it in less of the server's time than the default, pglz (a listing's row: 12 against 17 µs
  // all told; docs/benchmarks.md, tenth session). Only where the server has lz4 (PostgreSQL 14 and later,
  // built with it), and only once (the change locks the table).
  `do $$ begin
     if exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) then
       if exists (select 1 from pg_attribute where attrelid = 'console_requests'::regclass and attname = 'response_bytes' and attcompression <> 'l') then
         alter table console_requests alter column request_bytes set compression lz4, alter column response_bytes set compression lz4;
       end if;
     end if;
   end $$`,
];

type Row = {
  seq: string | number;
  company: string | null;
  raw: Omit<Raw, 'requestBytes' | 'responseBytes'>;
  request_bytes: Uint8Array;
  response_bytes: Uint8Array;
};

export type SqlRequestLog = RequestLog & {
  /** Takes one request of this instance (request-ring.ts `onRecord`). */
  record(raw: Raw, companyKey: string | undefined): void;
  /** Resolves when what was recorded so far is written. */
  flushed(): Promise<void>;
};

export function createSqlRequestLog({
  database,
  secrets,
  size = ringSize,
  pollMs = 250,
  batchMs = 100,
  batchRows = 100,
  batchBytes = 256 * 1024,
}: {
  database: Database;
  secrets: readonly string[];
  size?: number;
  pollMs?: number;
  /** The longest a request waits to be written, and the most requests and body bytes a batch waits for. */
  batchMs?: number;
  batchRows?: number;
  batchBytes?: number;
}): SqlRequestLog {
  let ready: Promise<void> | undefined;
  const prepare = () =>
    (ready ??= database
      .transaction(async (tx) => {
        // Instances starting at once: one creates the table while the others wait.
        await tx.query(`select pg_advisory_xact_lock(hashtext('idv-console-requests'))`);
        for (const statement of schema) await tx.query(statement);
      })
      .catch((error) => {
        ready = undefined;
        throw error;
      }));
  let pending: { raw: Raw; companyKey: string | undefined }[] = [];
  /** The bodies' bytes of the requests pending. */
  let pendingBytes = 0;
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  /** The newest row this instance deleted: its next delete looks past it only. */
  let deletedUpTo = 0;
  const listeners = new Set<(entry: { companyKey: string | undefined }) => void>();
  let newest = -1;
  let poller: NodeJS.Timeout | undefined;
  let closed = false;

  const item = (row: Row): RingEntry => {
    const id = `req_${row.seq}`;
    const raw: Raw = {
      ...row.raw,
      requestBytes: Buffer.from(row.request_bytes),
      responseBytes: Buffer.from(row.response_bytes),
    };
    let entry: RingEntry['entry'] | undefined;
    return {
      companyKey: row.company ?? undefined,
      sourceIp: raw.sourceIp,
      get entry() {
        return (entry ??= describe(id, raw, secrets));
      },
    };
  };

  async function write(batch: { raw: Raw; companyKey: string | undefined }[]) {
    await prepare();
    const companies: (string | null)[] = [];
    const raws: string[] = [];
    const requestLengths: number[] = [];
    const responseLengths: number[] = [];
    const bodies: Uint8Array[] = [];
    // The statement's delete does not see the rows it inserts: a batch longer than the log keeps its latest.
    for (const { raw, companyKey } of batch.length > size ? batch.slice(-size) : batch) {
      const { requestBytes, responseBytes, ...rest } = raw;
      companies.push(companyKey ?? null);
      raws.push(JSON.stringify(rest));
      requestLengths.push(requestBytes.length);
      responseLengths.push(responseBytes.length);
      bodies.push(requestBytes, responseBytes);
    }
    // One statement a batch: its rows (one text whatever their number, so one prepared statement), and the
    // rows past the latest `size` out. Committed without waiting for the flush of the write-ahead log
    // (`synchronous_commit` off for this transaction only): the log acknowledges nothing, so it need not
    // wait for the disk (it was two statements a batch, each committed with a flush). The bodies go as ONE
    // bytea (each request's then its answer's, cut apart by their lengths) and the rest as ONE JSON array:
    // an array of texts is escaped element by element by the driver and parsed the same way by the server,
    // which for a batch of listings (a page of records in each answer) held the event loop for milliseconds.
    const gone = await database.query<{ seq: string | number | null }>(
      `with setting as (select set_config('synchronous_commit', 'off', true)),
       batch as (
         select r.n, r.company, r.request_length, r.response_length,
           (sum(r.request_length + r.response_length) over (order by r.n) - r.request_length - r.response_length)::int as at
         from unnest($1::text[], $2::int[], $3::int[]) with ordinality as r(company, request_length, response_length, n)
       ),
       added as (
         insert into console_requests (company, raw, request_bytes, response_bytes)
         select b.company, j.raw, substr($4::bytea, b.at + 1, b.request_length), substr($4::bytea, b.at + b.request_length + 1, b.response_length)
         from batch b join json_array_elements($5::text::json) with ordinality as j(raw, n) on j.n = b.n
         where exists (select 1 from setting) order by b.n
         returning seq
       ),
       gone as (delete from console_requests where seq > $7::bigint and seq <= (select max(seq) from added) - $6::bigint returning seq)
       select max(seq) as seq from gone`,
      [companies, requestLengths, responseLengths, Buffer.concat(bodies), `[${raws.join(',')}]`, size, deletedUpTo],
    );
    // Rows deleted stay in the index until a vacuum: the next delete starts past this one's, not at the
    // first row ever written (another instance's deletes may leave a few behind: the rows are kept, then).
    if (gone[0]?.seq != null) deletedUpTo = Math.max(deletedUpTo, Number(gone[0].seq));
  }

  /** Writes what waits now (one statement, after the ones already under way). */
  const writeNow = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length) {
      const batch = pending;
      pending = [];
      pendingBytes = 0;
      writing = writing.then(() => write(batch)).catch(() => {});
    }
    return writing;
  };

  async function look() {
    if (closed || listeners.size === 0) return;
    try {
      await prepare();
      const rows = await database.query<{
        seq: string | number;
        company: string | null;
      }>('select seq, company from console_requests where seq > $1 order by seq', [newest]);
      for (const row of rows) {
        newest = Math.max(newest, Number(row.seq));
        for (const listener of listeners) listener({ companyKey: row.company ?? undefined });
      }
    } catch {
      // the database is closing or unreachable: the next look tries again
    }
  }

  return {
    record(raw, companyKey) {
      if (closed) return;
      const waiting = pending.push({ raw, companyKey });
      pendingBytes += raw.requestBytes.length + raw.responseBytes.length;
      // A batch every `batchMs`, or sooner when `batchRows` or `batchBytes` wait: few statements and
      // commits, whatever the rate of requests, and none so large that encoding it in one turn holds up
      // the requests in flight (request-log-sql-batch-size.test.ts says by how much).
      if (waiting >= batchRows || pendingBytes >= batchBytes) void writeNow();
      else if (waiting === 1) {
        timer = setTimeout(writeNow, batchMs);
        timer.unref();
      }
    },
    flushed: writeNow,
    async list(companyKey, filter: RequestFilter = {}) {
      // This instance's own requests are read back as soon as they were answered.
      await writeNow();
      await prepare();
      const where: string[] = [];
      const params: unknown[] = [];
      if (companyKey !== undefined) where.push(`company = $${params.push(companyKey)}`);
      if (filter.operation) where.push(`raw->>'operation' = $${params.push(filter.operation)}`);
      if (filter.status !== undefined) where.push(`(raw->>'status')::int = $${params.push(filter.status)}`);
      // Session and text are found in the described (redacted) entry: read the company's rows, then filter.
      const exact = !filter.sessionId && !filter.text;
      const limit = exact ? filter.limit ?? 100 : size;
      const rows = await database.query<Row>(
        `select seq, company, raw, request_bytes, response_bytes from console_requests ${where.length ? `where ${where.join(' and ')}` : ''} order by seq desc limit ${Number(limit)}`,
        params,
      );
      const text = filter.text?.toLowerCase();
      return rows
        .map(item)
        .filter(
          ({ entry }) =>
            (!filter.sessionId || entry.sessionId === filter.sessionId) &&
            (!text || [entry.path, entry.operation ?? '', entry.request.text ?? '', entry.response.text ?? ''].some((s) => s.toLowerCase().includes(text))),
        )
        .slice(0, filter.limit ?? 100);
    },
    async get(id) {
      const seq = /^req_(\d{1,18})$/.exec(id)?.[1];
      if (seq === undefined) return undefined;
      await writeNow();
      await prepare();
      const [row] = await database.query<Row>('select seq, company, raw, request_bytes, response_bytes from console_requests where seq = $1', [seq]);
      return row ? item(row) : undefined;
    },
    async addresses(companyKey) {
      await writeNow();
      await prepare();
      const rows = await database.query<{ ip: string }>(
        `select distinct raw->>'sourceIp' as ip from console_requests ${companyKey === undefined ? '' : 'where company = $1'}`,
        companyKey === undefined ? [] : [companyKey],
      );
      return new Set(rows.map((row) => row.ip));
    },
    subscribe(listener) {
      if (listeners.size === 0) {
        // Start from the newest row now: a console hears of what comes after it opened.
        void prepare()
          .then(() => database.query<{ seq: string | number | null }>('select max(seq) as seq from console_requests'))
          .then(([row]) => (newest = Math.max(newest, Number(row?.seq ?? 0))))
          .catch(() => {});
        poller = setInterval(look, pollMs);
        poller.unref();
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) clearInterval(poller);
      };
    },
    close() {
      closed = true;
      void writeNow();
      clearInterval(poller);
    },
  };
}
