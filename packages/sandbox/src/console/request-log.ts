// The request log as the console's operations read it: the memory ring of this process, or the shared
// log in the database (request-log-sql.ts) that every instance on one PostgreSQL writes and reads.
import type { RequestFilter, RequestRing, RingEntry } from './request-ring.js';

export type RequestLog = {
  /** The entries of a company (all entries for `undefined`: the admin's view), newest first. */
  list(companyKey: string | undefined, filter?: RequestFilter): Promise<RingEntry[]>;
  get(id: string): Promise<RingEntry | undefined>;
  /** The addresses a company's requests came from (every address for `undefined`). */
  addresses(companyKey: string | undefined): Promise<Set<string>>;
  /** Calls `listener` for every new entry (of this instance, and of others for a shared log); returns the unsubscribe. */
  subscribe(listener: (entry: { companyKey: string | undefined }) => void): () => void;
  close(): void;
};

/** The memory ring, read as a log. */
export function memoryLog(ring: RequestRing): RequestLog {
  return {
    list: async (companyKey, filter) => ring.list(companyKey, filter),
    get: async (id) => ring.get(id),
    addresses: async (companyKey) => ring.addresses(companyKey),
    subscribe: (listener) => ring.subscribe(listener),
    close: () => {},
  };
}
