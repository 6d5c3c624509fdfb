// The request log in the database, for instances that share one PostgreSQL: each instance writes the
// requests it answered (as the ring keeps them: the first 16 KiB of each body, described when read), and
// every instance's console reads them all, newest first, and hears of others' requests by looking at the
// newest row four times a second while a console is open. Bounded: the rows beyond the latest `size` are
// deleted as new ones come. Writing never delays or fails a request: rows are written in batches after it
// is answered, and a failed write is dropped.
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
];

type Row = { seq: string | number; company: string | null; raw: Omit<Raw, 'requestBytes' | 'responseBytes'>; request_bytes: Uint8Array; response_bytes: Uint8Array };

export type SqlRequestLog = RequestLog & {
  /** Takes one request of this instance (request-ring.ts `onRecord`). */
  record(raw: Raw, companyKey: string | undefined): void;
  /** Resolves when what was recorded so far is written. */
  flushed(): Promise<void>;
};

export function createSqlRequestLog({ database, secrets, size = ringSize, pollMs = 250 }: { database: Database; secrets: readonly string[]; size?: number; pollMs?: number }): SqlRequestLog {
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
  let writing: Promise<void> = Promise.resolve();
  const listeners = new Set<(entry: { companyKey: string | undefined }) => void>();
  let newest = -1;
  let poller: NodeJS.Timeout | undefined;
  let closed = false;

  const item = (row: Row): RingEntry => {
    const id = `req_${row.seq}`;
    const raw: Raw = { ...row.raw, requestBytes: Buffer.from(row.request_bytes), responseBytes: Buffer.from(row.response_bytes) };
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
    const params: unknown[] = [];
    const values = batch.map(({ raw, companyKey }) => {
      const { requestBytes, responseBytes, ...rest } = raw;
      params.push(companyKey ?? null, JSON.stringify(rest), requestBytes, responseBytes);
      const n = params.length;
      return `($${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
    });
    const [last] = await database.query<{ seq: string | number }>(`insert into console_requests (company, raw, request_bytes, response_bytes) values ${values.join(', ')} returning seq`, params).then((rows) => rows.slice(-1));
    await database.query('delete from console_requests where seq <= $1', [Number(last!.seq) - size]);
  }

  async function look() {
    if (closed || listeners.size === 0) return;
    try {
      await prepare();
      const rows = await database.query<{ seq: string | number; company: string | null }>('select seq, company from console_requests where seq > $1 order by seq', [newest]);
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
      if (pending.push({ raw, companyKey }) > 1) return;
      // One insert per turn of the event loop, whatever the number of requests answered in it.
      setImmediate(() => {
        const batch = pending;
        pending = [];
        writing = writing.then(() => write(batch)).catch(() => {});
      });
    },
    async flushed() {
      while (pending.length) await new Promise((resolve) => setImmediate(resolve));
      await writing;
    },
    async list(companyKey, filter: RequestFilter = {}) {
      await prepare();
      const where: string[] = [];
      const params: unknown[] = [];
      if (companyKey !== undefined) where.push(`company = $${params.push(companyKey)}`);
      if (filter.operation) where.push(`raw->>'operation' = $${params.push(filter.operation)}`);
      if (filter.status !== undefined) where.push(`(raw->>'status')::int = $${params.push(filter.status)}`);
      // Session and text are found in the described (redacted) entry: read the company's rows, then filter.
      const exact = !filter.sessionId && !filter.text;
      const limit = exact ? (filter.limit ?? 100) : size;
      const rows = await database.query<Row>(`select seq, company, raw, request_bytes, response_bytes from console_requests ${where.length ? `where ${where.join(' and ')}` : ''} order by seq desc limit ${Number(limit)}`, params);
      const text = filter.text?.toLowerCase();
      return rows
        .map(item)
        .filter(({ entry }) => (!filter.sessionId || entry.sessionId === filter.sessionId) && (!text || [entry.path, entry.operation ?? '', entry.request.text ?? '', entry.response.text ?? ''].some((s) => s.toLowerCase().includes(text))))
        .slice(0, filter.limit ?? 100);
    },
    async get(id) {
      const seq = /^req_(\d{1,18})$/.exec(id)?.[1];
      if (seq === undefined) return undefined;
      await prepare();
      const [row] = await database.query<Row>('select seq, company, raw, request_bytes, response_bytes from console_requests where seq = $1', [seq]);
      return row ? item(row) : undefined;
    },
    async addresses(companyKey) {
      await prepare();
      const rows = await database.query<{ ip: string }>(`select distinct raw->>'sourceIp' as ip from console_requests ${companyKey === undefined ? '' : 'where company = $1'}`, companyKey === undefined ? [] : [companyKey]);
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
      clearInterval(poller);
    },
  };
}
