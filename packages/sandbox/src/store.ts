/**
 * Where the sandbox keeps its state: one collection per kind of record, each partitioned by company so
 * that no operation can reach another company's data by accident. Every method is synchronous, so a
 * check and the write that follows it can never interleave with another request: concurrent requests
 * never lose or double a record. A persistent engine implements the same interface.
 */
export interface Collection<T> {
  get(company: string, id: string): T | undefined;
  /** Which company holds the record, if any: to tell `invalid-access` from `not-found`. */
  ownerOf(id: string): string | undefined;
  put(company: string, id: string, record: T): void;
  delete(company: string, id: string): boolean;
  list(company: string): T[];
  /** `limit` records from `offset` on, in insertion order, without copying the whole collection. */
  page(company: string, offset: number, limit: number): T[];
  count(company: string): number;
  clear(): void;
}

export function memoryCollection<T>(): Collection<T> {
  const byCompany = new Map<string, Map<string, T>>();
  const owners = new Map<string, string>();
  const partition = (company: string) => {
    let records = byCompany.get(company);
    if (!records) byCompany.set(company, (records = new Map()));
    return records;
  };
  return {
    get: (company, id) => byCompany.get(company)?.get(id),
    ownerOf: (id) => owners.get(id),
    put: (company, id, record) => {
      partition(company).set(id, record);
      owners.set(id, company);
    },
    delete: (company, id) => {
      const deleted = byCompany.get(company)?.delete(id) ?? false;
      if (deleted) owners.delete(id);
      return deleted;
    },
    list: (company) => [...(byCompany.get(company)?.values() ?? [])],
    page: (company, offset, limit) => {
      const out: T[] = [];
      let index = 0;
      for (const record of byCompany.get(company)?.values() ?? []) {
        if (out.length >= limit) break;
        if (index++ >= offset) out.push(record);
      }
      return out;
    },
    count: (company) => byCompany.get(company)?.size ?? 0,
    clear: () => {
      byCompany.clear();
      owners.clear();
    },
  };
}
