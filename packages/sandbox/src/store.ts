/**
 * Where the sandbox keeps its state: one collection per kind of record, each partitioned by company so
 * that no operation can reach another company's data by accident. Every method is synchronous, so a
 * check and the write that follows it can never interleave with another request: concurrent requests
 * never lose or double a record. A persistent engine implements the same interface.
 *
 * Memory is bounded: a company holds at most `maxPerCompany` records of a kind and at most its byte
 * budget (shared by its collections, estimated by `sizeOf`); a `put` over either throws `StoreFull` and
 * stores nothing. Lookups by a field go through named indexes, never a scan of the company's records.
 */
import { StoreFull } from './errors.js';

export interface Collection<T> {
  get(company: string, id: string): T | undefined;
  /** Which company holds the record, if any: to tell `invalid-access` from `not-found`. */
  ownerOf(id: string): string | undefined;
  /** Stores or replaces a record (replacing also re-reads its index keys); throws StoreFull over a limit. */
  put(company: string, id: string, record: T): void;
  delete(company: string, id: string): boolean;
  list(company: string): T[];
  /** `limit` records from `offset` on, in insertion order, without copying the whole collection. */
  page(company: string, offset: number, limit: number): T[];
  count(company: string): number;
  /** The company's records whose index `index` holds `key`, in insertion order. */
  find(company: string, index: string, key: string): T[];
  clear(company?: string): void;
}

/** Bytes a company may hold across its collections (an estimate: see each collection's `sizeOf`). */
export type Budget = { charge(company: string, bytes: number): boolean; refund(company: string, bytes: number): void; clear(company?: string): void };

export function createBudget(maxBytesPerCompany: number): Budget {
  const used = new Map<string, number>();
  return {
    charge(company, bytes) {
      const now = (used.get(company) ?? 0) + bytes;
      if (now > maxBytesPerCompany) return false;
      used.set(company, now);
      return true;
    },
    refund(company, bytes) {
      used.set(company, Math.max(0, (used.get(company) ?? 0) - bytes));
    },
    clear(company) {
      if (company === undefined) used.clear();
      else used.delete(company);
    },
  };
}

export type CollectionOptions<T> = {
  /** Records a company may hold in this collection. */
  maxPerCompany?: number;
  budget?: Budget;
  /** The record's estimated size in bytes, charged to the budget when stored. */
  sizeOf?: (record: T) => number;
  /** Named indexes: the keys under which a record is found by `find`. */
  indexes?: Record<string, (record: T) => readonly string[]>;
};

type Entry<T> = { record: T; size: number; keys: Record<string, readonly string[]> };

export function memoryCollection<T>(options: CollectionOptions<T> = {}): Collection<T> {
  const { maxPerCompany = Infinity, budget, sizeOf = () => 0, indexes = {} } = options;
  const indexNames = Object.keys(indexes);
  const byCompany = new Map<string, Map<string, Entry<T>>>();
  const owners = new Map<string, string>();
  // index name -> company -> key -> ids (a Set keeps insertion order)
  const lookups = new Map<string, Map<string, Map<string, Set<string>>>>(indexNames.map((name) => [name, new Map()]));

  const partition = (company: string) => {
    let records = byCompany.get(company);
    if (!records) byCompany.set(company, (records = new Map()));
    return records;
  };
  const unindex = (company: string, id: string, entry: Entry<T>) => {
    for (const name of indexNames) {
      const keys = lookups.get(name)!.get(company);
      for (const key of entry.keys[name]!) {
        const ids = keys?.get(key);
        ids?.delete(id);
        if (ids?.size === 0) keys!.delete(key);
      }
    }
  };

  return {
    get: (company, id) => byCompany.get(company)?.get(id)?.record,
    ownerOf: (id) => owners.get(id),
    put: (company, id, record) => {
      const records = partition(company);
      const old = records.get(id);
      if (!old && records.size >= maxPerCompany) throw StoreFull.instance;
      const size = sizeOf(record);
      if (budget && !budget.charge(company, size - (old?.size ?? 0))) throw StoreFull.instance;
      if (old) unindex(company, id, old);
      const keys = Object.fromEntries(indexNames.map((name) => [name, indexes[name]!(record)]));
      records.set(id, { record, size, keys });
      owners.set(id, company);
      for (const name of indexNames) {
        const companies = lookups.get(name)!;
        let byKey = companies.get(company);
        if (!byKey) companies.set(company, (byKey = new Map()));
        for (const key of keys[name]!) {
          let ids = byKey.get(key);
          if (!ids) byKey.set(key, (ids = new Set()));
          ids.add(id);
        }
      }
    },
    delete: (company, id) => {
      const records = byCompany.get(company);
      const entry = records?.get(id);
      if (!entry) return false;
      records!.delete(id);
      owners.delete(id);
      unindex(company, id, entry);
      budget?.refund(company, entry.size);
      return true;
    },
    list: (company) => [...(byCompany.get(company)?.values() ?? [])].map((entry) => entry.record),
    page: (company, offset, limit) => {
      const out: T[] = [];
      let index = 0;
      for (const entry of byCompany.get(company)?.values() ?? []) {
        if (out.length >= limit) break;
        if (index++ >= offset) out.push(entry.record);
      }
      return out;
    },
    count: (company) => byCompany.get(company)?.size ?? 0,
    find: (company, index, key) => {
      const ids = lookups.get(index)?.get(company)?.get(key);
      const records = byCompany.get(company);
      return ids && records ? [...ids].map((id) => records.get(id)!.record) : [];
    },
    clear: (company) => {
      if (company === undefined) {
        byCompany.clear();
        owners.clear();
        for (const lookup of lookups.values()) lookup.clear();
        return; // the caller clears the shared budget once for every collection
      }
      for (const [id, entry] of byCompany.get(company) ?? []) {
        owners.delete(id);
        budget?.refund(company, entry.size);
      }
      byCompany.delete(company);
      for (const lookup of lookups.values()) lookup.delete(company);
    },
  };
}
