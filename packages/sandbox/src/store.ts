/**
 * Where the sandbox keeps its state: one collection per kind of record, each partitioned by company so
 * that no operation can reach another company's data by accident. Every method returns a promise, so a
 * persistent engine (sql/store.ts: PGlite or PostgreSQL) implements the same interface as the memory one
 * here; a handler never knows which it has. A check and the write that follows it stay atomic because
 * the server runs each writing request inside `State.transaction(company, ...)` (state.ts).
 *
 * Bounded: a company holds at most `maxPerCompany` records of a kind and at most its byte budget (shared
 * by its collections, estimated by `sizeOf`); a `put` over either throws `StoreFull` and stores nothing.
 * Lookups by a field go through named indexes, never a scan of the company's records. An index named in
 * `unique` holds each key once per company: a `put` that would repeat one throws `Duplicate`, so the rule
 * holds in the database itself (a unique constraint), across instances, whatever a handler checked.
 *
 * The memory collection hands out the stored objects themselves: a handler that changes a record must
 * `put` it again (a persistent store keeps only what was put).
 */
import { StoreFull } from './errors.js';

export interface Collection<T> {
  get(company: string, id: string): Promise<T | undefined>;
  /** Which company holds the record, if any: to tell `invalid-access` from `not-found`. */
  ownerOf(id: string): Promise<string | undefined>;
  /** Stores or replaces a record (replacing also re-reads its index keys); throws StoreFull over a limit, Duplicate on a taken unique key. */
  put(company: string, id: string, record: T): Promise<void>;
  /**
   * `put` done before it returns, where the store can (memory): throws what `put` rejects with. Lets a
   * handler answer without a promise (issue 14's bench: add-blacklist-record); a store without it is put
   * to through `put`. A wrapper of a store must not hand it on unless its `put` adds nothing to it.
   */
  putNow?(company: string, id: string, record: T): void;
  delete(company: string, id: string): Promise<boolean>;
  list(company: string): Promise<T[]>;
  /** `limit` records from `offset` on, in insertion order, without reading the whole collection. */
  page(company: string, offset: number, limit: number): Promise<T[]>;
  count(company: string): Promise<number>;
  /** The company's records whose index `index` holds `key`, in insertion order. */
  find(company: string, index: string, key: string): Promise<T[]>;
}

/** A `put` whose unique index key another record of the company already holds: nothing was stored. */
export class Duplicate extends Error {
  constructor(readonly index: string) {
    super(`a record with the same ${index} exists`);
  }
}

/** What defines a kind of record, whatever the store: shared by memory.ts and the SQL store. */
export type CollectionOptions<T> = {
  /** Records a company may hold in this collection. */
  maxPerCompany?: number;
  /** The record's estimated size in bytes, charged to the company's byte budget when stored. */
  sizeOf?: (record: T) => number;
  /** Named indexes: the keys under which a record is found by `find`. */
  indexes?: Record<string, (record: T) => readonly string[]>;
  /** Indexes whose keys are unique per company. */
  unique?: readonly string[];
  /**
   * For a unique index whose record has one key: that key's `hashOf`, worked out from the record without
   * making the key string, or undefined where it cannot (the key is then made and hashed). The memory
   * store uses it; a store that keeps the keys themselves need not.
   */
  hashes?: Record<string, (record: T) => number | undefined>;
};

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

/**
 * Runs one piece of work at a time per key, in arrival order. The memory store's transactions: with
 * awaits between a check and its write, two requests of one company could otherwise both pass the check.
 * Other companies never wait. Each key has a lane that stays once made (keys are companies, few): an
 * uncontended piece of work costs one `then` with the lane's own callbacks, and no map entry made and
 * deleted per piece, which made V8 grow and shrink the map's table each time (issue 14's bench).
 */
export function keyedMutex() {
  /** A key's state: whether work runs, the work waiting behind it in arrival order, and the callbacks that end a piece. */
  type Lane = { key: string; busy: boolean; waiting: (() => void)[]; done: (value: unknown) => unknown; failed: (error: unknown) => never };
  const lanes = new Map<string, Lane>();
  /** Idle lanes kept beyond this many are dropped, so that a caller with ever new keys does not grow the map. */
  const maxLanes = 1000;
  const release = (lane: Lane) => {
    const next = lane.waiting.shift();
    if (next) return next();
    lane.busy = false;
    if (lanes.size > maxLanes) lanes.delete(lane.key);
  };
  const laneOf = (key: string): Lane => {
    let lane = lanes.get(key);
    if (lane === undefined) {
      const made: Lane = {
        key,
        busy: false,
        waiting: [],
        done: (value) => (release(made), value),
        failed: (error) => {
          release(made);
          throw error;
        },
      };
      lanes.set(key, (lane = made));
    }
    return lane;
  };
  const run = <T>(lane: Lane, work: () => Promise<T>): Promise<T> => {
    let running: Promise<T>;
    try {
      running = Promise.resolve(work());
    } catch (error) {
      release(lane);
      return Promise.reject(error);
    }
    return running.then(lane.done as (value: T) => T, lane.failed);
  };
  return function exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    const lane = laneOf(key);
    if (!lane.busy) {
      lane.busy = true;
      return run(lane, work);
    }
    return new Promise<T>((resolve, reject) => lane.waiting.push(() => void run(lane, work).then(resolve, reject)));
  };
}

/**
 * An index's keys for one record: its one key alone (the usual case, no array), or several. A unique
 * index's keys are their hashes (`hashOf`), numbers a map holds without an object each.
 */
type Key = string | number;
type Keys = Key | readonly Key[];
const none: readonly string[] = [];

/**
 * A unique index's key as its map holds it: a 31-bit FNV-1a hash of the key (a small integer, kept in the
 * map's table itself). The key strings of a unique index were kept for every stored record only to be
 * compared when a put probed the map: a string per record that young-generation collections copied until
 * it was promoted, and one more read of memory per entry a probe passed (issue 14's bench:
 * add-blacklist-record stores a record a request, under a unique identity index as large as the store).
 * Two keys with the same hash are told apart by the records' own keys (`sameKey`).
 */
export function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < key.length; at++) hash = Math.imul(hash ^ key.charCodeAt(at), 0x01000193);
  // A small integer for V8 (31 bits, signed): no heap number for the map to keep.
  return hash >> 1;
}
/** What an index keeps per company: the IDs under each key. */
type IdsByKey = { get(key: Key): Ids | undefined; set(key: Key, ids: Ids): unknown; delete(key: Key): unknown };

/** Slots of a hash table made with no record yet (a power of two). */
const firstSlots = 16;

/**
 * A unique index's hashes (`hashOf`) and the IDs under each, in a table of open addressing: a hash and the
 * number of its IDs' place side by side in one array of integers, probed in a line. Asking for a hash
 * that no record holds (every add-blacklist-record's identity) reads one or two neighbouring pairs, in one
 * line of the CPU's cache; a Map read its bucket, then each entry of the bucket's chain, each a miss of
 * the CPU's caches in a map as large as the store (issue 14's bench: a tenth of add's CPU was its two
 * probes into such maps). The IDs themselves sit in an array beside it, read only for a hash that is held.
 * At most half the slots are taken (deleted ones included), so a probe ends soon at an empty one.
 */
class HashedIds implements IdsByKey {
  /** Per slot, two integers: the hash, and its IDs' place in `values` plus one (0: empty, -1: deleted). */
  private slots = new Int32Array(2 * firstSlots);
  private mask = firstSlots - 1;
  /** Slots taken, deleted ones included. */
  private taken = 0;
  private live = 0;
  private readonly values: (Ids | undefined)[] = [];
  /** Places of `values` freed by deletes, reused by the next sets. */
  private readonly free: number[] = [];

  /** The slot holding `hash`, or -1. */
  private slotOf(hash: number): number {
    const { slots, mask } = this;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const place = slots[2 * at + 1]!;
      if (place === 0) return -1;
      if (place > 0 && slots[2 * at] === hash) return at;
    }
  }
  get(key: Key): Ids | undefined {
    const at = this.slotOf(key as number);
    return at < 0 ? undefined : this.values[this.slots[2 * at + 1]! - 1];
  }
  set(key: Key, ids: Ids): void {
    const hash = key as number;
    const held = this.slotOf(hash);
    if (held >= 0) {
      this.values[this.slots[2 * held + 1]! - 1] = ids;
      return;
    }
    if (2 * (this.taken + 1) > this.slots.length / 2) this.rebuild();
    const place = this.free.length ? this.free.pop()! : this.values.length;
    this.values[place] = ids;
    const { slots, mask } = this;
    // A deleted slot on the way is taken again; the probe above showed that the hash is in none further on.
    let at = hash & mask;
    while (slots[2 * at + 1]! > 0) at = (at + 1) & mask;
    if (slots[2 * at + 1] === 0) this.taken++;
    slots[2 * at] = hash;
    slots[2 * at + 1] = place + 1;
    this.live++;
  }
  delete(key: Key): void {
    const at = this.slotOf(key as number);
    if (at < 0) return;
    const place = this.slots[2 * at + 1]! - 1;
    this.values[place] = undefined;
    this.free.push(place);
    this.slots[2 * at + 1] = -1;
    this.live--;
  }
  /** A table twice the live slots' worth at least, without the deleted ones. */
  private rebuild() {
    const old = this.slots;
    let size = firstSlots;
    while (size < 4 * (this.live + 1)) size *= 2;
    const slots = new Int32Array(2 * size);
    const mask = size - 1;
    for (let at = 0; at < old.length; at += 2) {
      if (old[at + 1]! <= 0) continue;
      let to = old[at]! & mask;
      while (slots[2 * to + 1] !== 0) to = (to + 1) & mask;
      slots[2 * to] = old[at]!;
      slots[2 * to + 1] = old[at + 1]!;
    }
    this.slots = slots;
    this.mask = mask;
    this.taken = this.live;
  }
}

/** Deleted records a company's table keeps as holes before it closes them up (and while they are fewer than the records). */
const maxHoles = 1024;

/**
 * A company's records by ID, in the order their IDs were first put (a Map's order: a record put again
 * keeps its place). The same table of open addressing as `HashedIds`, over the IDs' hashes (`hashOf`),
 * each slot naming an entry's place in an array kept in that order: a put of a new ID reads a slot or two
 * in one line of the CPU's cache, where a Map of ID strings read its bucket, its chain's entries and each
 * of their key strings (issue 14's bench: add-blacklist-record stores a record a request into a table as
 * large as the store). An entry is read only for a slot whose hash is the ID's, to compare the ID itself.
 * A delete leaves a hole in the order, closed up once there are more than `maxHoles` and than records.
 */
class Records<T> {
  /** Per slot, the ID's hash and its entry's place plus one (0: empty, -1: deleted). */
  private slots = new Int32Array(2 * firstSlots);
  private mask = firstSlots - 1;
  private taken = 0;
  private entries: (Entry<T> | undefined)[] = [];
  private holes = 0;
  size = 0;

  /** The place of the entry of `id` (whose hash is `hash`), or -1. */
  placeOf(id: string, hash: number): number {
    const { slots, mask, entries } = this;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const place = slots[2 * at + 1]!;
      if (place === 0) return -1;
      if (place > 0 && slots[2 * at] === hash && entries[place - 1]!.id === id) return place - 1;
    }
  }
  at(place: number): Entry<T> {
    return this.entries[place]!;
  }
  /** Puts `entry` in place of the one at `place` (a record put again keeps its place in the order). */
  replace(place: number, entry: Entry<T>): void {
    this.entries[place] = entry;
  }
  /** Adds the entry of an ID that has none, last in the order. */
  add(hash: number, entry: Entry<T>): void {
    if (2 * (this.taken + 1) > this.slots.length / 2) this.rebuild();
    this.entries.push(entry);
    this.settle(hash, this.entries.length);
    this.size++;
  }
  get(id: string): Entry<T> | undefined {
    const place = this.placeOf(id, hashOf(id));
    return place < 0 ? undefined : this.entries[place];
  }
  has(id: string): boolean {
    return this.placeOf(id, hashOf(id)) >= 0;
  }
  delete(id: string): boolean {
    const hash = hashOf(id);
    const { slots, mask, entries } = this;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const place = slots[2 * at + 1]!;
      if (place === 0) return false;
      if (place > 0 && slots[2 * at] === hash && entries[place - 1]!.id === id) {
        slots[2 * at + 1] = -1;
        entries[place - 1] = undefined;
        this.size--;
        if (++this.holes > maxHoles && this.holes > this.size) this.closeUp();
        return true;
      }
    }
  }
  /** The entries in order. */
  *values(): IterableIterator<Entry<T>> {
    for (const entry of this.entries) if (entry !== undefined) yield entry;
  }
  /** The records of `limit` entries from the `offset`th on, in order. */
  page(offset: number, limit: number): T[] {
    const { entries } = this;
    const out: T[] = [];
    // No hole: the page is where it lies (whole numbers only, as the loop below reads them).
    if (this.holes === 0 && Number.isInteger(offset) && offset >= 0 && Number.isInteger(limit) && limit >= 0) {
      const end = Math.min(entries.length, offset + limit);
      for (let at = offset; at < end; at++) out.push(entries[at]!.record);
      return out;
    }
    let index = 0;
    for (let at = 0; at < entries.length && out.length < limit; at++) {
      const entry = entries[at];
      if (entry !== undefined && index++ >= offset) out.push(entry.record);
    }
    return out;
  }
  /** Writes `place + 1` into an empty or deleted slot of the hash (the caller knows the ID is in none). */
  private settle(hash: number, placePlusOne: number) {
    const { slots, mask } = this;
    let at = hash & mask;
    while (slots[2 * at + 1]! > 0) at = (at + 1) & mask;
    if (slots[2 * at + 1] === 0) this.taken++;
    slots[2 * at] = hash;
    slots[2 * at + 1] = placePlusOne;
  }
  /** A table twice the records' worth at least, without deleted slots. */
  private rebuild() {
    const old = this.slots;
    let size = firstSlots;
    while (size < 4 * (this.size + 1)) size *= 2;
    this.slots = new Int32Array(2 * size);
    this.mask = size - 1;
    this.taken = 0;
    for (let at = 0; at < old.length; at += 2) if (old[at + 1]! > 0) this.settle(old[at]!, old[at + 1]!);
  }
  /** The entries without their holes, in the same order, and a table of their new places. */
  private closeUp() {
    const old = this.slots;
    const moved = new Int32Array(this.entries.length);
    let kept = 0;
    for (let at = 0; at < this.entries.length; at++) {
      const entry = this.entries[at];
      if (entry === undefined) continue;
      moved[at] = kept + 1;
      this.entries[kept++] = entry;
    }
    this.entries.length = kept;
    this.holes = 0;
    let size = firstSlots;
    while (size < 4 * (this.size + 1)) size *= 2;
    this.slots = new Int32Array(2 * size);
    this.mask = size - 1;
    this.taken = 0;
    for (let at = 0; at < old.length; at += 2) if (old[at + 1]! > 0) this.settle(old[at]!, moved[old[at + 1]! - 1]!);
  }
}

/** Queued entries a deferred index takes in one turn of the event loop when it is read (see `caughtUp`). */
const catchUpPerTurn = 1024;

/**
 * A stored record, its ID, its charged size, and the keys it was indexed under (by index number: a handler
 * may change the record itself). The first two indexes' keys sit in the entry itself: a store holds many
 * records, and every object each one keeps is work for each collection of the heap (issue 14's bench:
 * add-blacklist-record keeps a record a request, and young-generation collections copy what it keeps).
 * A deferred index's keys are `none` until the index has caught up with the entry (see `catchUp`).
 */
type Entry<T> = {
  k0: Keys;
  k1: Keys;
  more: Keys[] | undefined;
  /** False once the entry is replaced or deleted: a deferred index then never takes it. */
  live: boolean;
  readonly record: T;
  readonly size: number;
  readonly id: string;
};
/**
 * An object literal, made in this one place: V8 tracks where literals are made and, as every entry made
 * here outlives young-generation collections, allocates them in the old generation from the start,
 * where a class's instances are copied by a collection or two first.
 */
const entryOf = <T>(record: T, size: number, id: string): Entry<T> => ({ k0: none, k1: none, more: undefined, live: true, record, size, id });
const keysOfEntry = <T>(entry: Entry<T>, at: number): Keys => (at === 0 ? entry.k0 : at === 1 ? entry.k1 : (entry.more?.[at - 2] ?? none));
/** The keys an entry was indexed under for one index. */
const keysAt = <T>(entry: Entry<T>, at: number): readonly Key[] => {
  const keys = keysOfEntry(entry, at);
  return typeof keys === 'object' ? keys : [keys];
};
const setKeysOfEntry = <T>(entry: Entry<T>, at: number, indexed: readonly Key[]) => {
  const kept = indexed.length === 1 ? indexed[0]! : indexed;
  if (at === 0) entry.k0 = kept;
  else if (at === 1) entry.k1 = kept;
  else (entry.more ??= [])[at - 2] = kept;
};

/** A memory collection, with `clear` for the state's resets. */
export type MemoryCollection<T> = Collection<T> & { clear(company?: string): void };

/**
 * The IDs under one key of an index: one ID alone (the usual case, no container), or a Set of them
 * once a second record shares the key (a Set keeps insertion order).
 */
type Ids = string | Set<string>;

export function memoryCollection<T>(options: CollectionOptions<T> & { budget?: Budget } = {}): MemoryCollection<T> {
  const { maxPerCompany = Infinity, budget, sizeOf = () => 0, indexes = {}, unique = [] } = options;
  const indexNames = Object.keys(indexes);
  const indexFns = indexNames.map((name) => indexes[name]!);
  const uniqueAt = unique.map((name) => indexNames.indexOf(name));
  /**
   * The other indexes are deferred: a put only queues its entry (per company, in put order), and the
   * index takes the queued entries when it is next read (`catchUp`). Only a unique index must be current
   * at every put; the others are read by few operations (a finished session's blacklist check, a
   * session's children, a user's groups), while every put of an index into a map as large as the store
   * cost a probe that missed the CPU's caches (issue 14's bench: add-blacklist-record, a record a
   * request, spent a tenth of its CPU on its match index). Found records and their order are as if each
   * put had indexed its record at once. The keys are read from the record when the index catches up:
   * a handler that changes a stored record puts it again (above), and that put queues it anew.
   */
  const deferred = indexNames.map((_, at) => !uniqueAt.includes(at));
  const deferredAt = indexNames.map((_, at) => at).filter((at) => deferred[at]);
  const queued = new Map<string, Entry<T>[]>();
  const byCompany = new Map<string, Records<T>>();
  /** Per unique index, during a put: its keys of the record (when made), its hashes, and the array of one hash it reuses. */
  const keys: (readonly string[] | undefined)[] = indexNames.map(() => undefined);
  const hashes: (readonly number[])[] = indexNames.map((): readonly number[] => []);
  const single: number[][] = indexNames.map(() => [0]);
  const hashFns = indexNames.map((name) => options.hashes?.[name]);
  // Per index, company -> key (a unique index: its hash) -> IDs: a map per company (made once), none per
  // key unless two records share it.
  const lookups: Map<string, IdsByKey>[] = indexNames.map(() => new Map());
  const keysOf = (at: number, company: string) => {
    const companies = lookups[at]!;
    let byKey = companies.get(company);
    if (!byKey) companies.set(company, (byKey = deferred[at] ? new Map<Key, Ids>() : new HashedIds()));
    return byKey;
  };

  const partition = (company: string) => {
    let records = byCompany.get(company);
    if (!records) byCompany.set(company, (records = new Records<T>()));
    return records;
  };
  /** Adds `id` under each of `indexed` in index `at`. */
  const indexUnder = (company: string, at: number, id: string, indexed: readonly Key[]) => {
    const lookup = keysOf(at, company);
    for (const key of indexed) {
      const ids = lookup.get(key);
      if (ids === undefined) lookup.set(key, id);
      else if (typeof ids === 'string') {
        if (ids !== id) lookup.set(key, new Set([ids, id]));
      } else ids.add(id);
    }
  };
  /** Keeps the queued entries still stored, in put order. */
  const dropDead = (waiting: Entry<T>[]) => {
    let kept = 0;
    for (const entry of waiting) if (entry.live) waiting[kept++] = entry;
    waiting.length = kept;
  };
  /** The deferred indexes take the company's queued entries that are still stored, in put order. */
  const catchUp = (company: string, most = Infinity): boolean => {
    const waiting = queued.get(company);
    if (waiting === undefined || waiting.length === 0) return false;
    const taken = Math.min(most, waiting.length);
    for (let at = 0; at < taken; at++) {
      const entry = waiting[at]!;
      if (!entry.live) continue;
      for (const deferredIndex of deferredAt) {
        const indexed = indexFns[deferredIndex]!(entry.record);
        indexUnder(company, deferredIndex, entry.id, indexed);
        setKeysOfEntry(entry, deferredIndex, indexed);
      }
    }
    if (taken === waiting.length) waiting.length = 0;
    else waiting.splice(0, taken);
    return waiting.length > 0;
  };
  /**
   * A read after many puts catches up `catchUpPerTurn` entries a turn, so that no turn of the event loop
   * indexes a whole store's worth (issue 14: no request blocks the others for more than 50 ms; a read
   * after 50,000 blacklist puts took 67 to 100 ms in one turn, and 12 to 18 ms at most a turn in pieces of
   * 1,024, at load 5 to 7). One catch-up at a time per company; a clear stops it.
   */
  const catchingUp = new Map<string, Promise<void>>();
  const caughtUp = (company: string): Promise<void> | undefined => {
    const running = catchingUp.get(company);
    if (running) return running;
    if (!catchUp(company, catchUpPerTurn)) return undefined;
    const rest = (async () => {
      do await new Promise<void>((resolve) => setImmediate(resolve));
      while (catchUp(company, catchUpPerTurn));
    })().finally(() => catchingUp.delete(company));
    catchingUp.set(company, rest);
    return rest;
  };
  const unindex = (company: string, id: string, entry: Entry<T>) => {
    for (let at = 0; at < lookups.length; at++) {
      const lookup = lookups[at]!.get(company);
      if (!lookup) continue;
      for (const key of keysAt(entry, at)) {
        const ids = lookup.get(key);
        if (ids === undefined) continue;
        if (typeof ids === 'string') {
          if (ids === id) lookup.delete(key);
        } else {
          ids.delete(id);
          if (ids.size === 1) lookup.set(key, ids.values().next().value as string);
          else if (ids.size === 0) lookup.delete(key);
        }
      }
    }
  };
  /** Whether the stored record `id` was indexed under `key` in unique index `at` (its hash matched). */
  const sameKey = (company: string, at: number, id: string, key: string) => {
    const entry = byCompany.get(company)?.get(id);
    return entry !== undefined && indexFns[at]!(entry.record).includes(key);
  };
  const holdsOther = (company: string, at: number, ids: Ids | undefined, id: string, key: string) => {
    if (ids === undefined) return false;
    if (typeof ids === 'string') return ids !== id && sameKey(company, at, ids, key);
    for (const other of ids) if (other !== id && sameKey(company, at, other, key)) return true;
    return false;
  };
  /** The unique index whose key (hashed in `hashes`) another record holds, if any; a held hash is told apart by the key itself. */
  const taken = (company: string, id: string, record: T) => {
    for (let u = 0; u < uniqueAt.length; u++) {
      const at = uniqueAt[u]!;
      const lookup = lookups[at]!.get(company);
      if (!lookup) continue;
      const hashed = hashes[at]!;
      for (let k = 0; k < hashed.length; k++) {
        const ids = lookup.get(hashed[k]!);
        if (ids !== undefined && holdsOther(company, at, ids, id, (keys[at] ??= indexFns[at]!(record))[k]!)) return unique[u];
      }
    }
    return undefined;
  };
  /**
   * A unique index's hashes of `record`, each once: from the record itself where the collection gives a
   * way (`hashes`: no key string made, issue 14's bench), else from its keys (kept in `keys` for `taken`).
   * One key's hash goes in an array of the index's own, reused by every put.
   */
  const hashUnique = (at: number, record: T) => {
    const direct = hashFns[at]?.(record);
    if (direct !== undefined) {
      keys[at] = undefined;
      single[at]![0] = direct;
      hashes[at] = single[at]!;
      return;
    }
    const indexed = indexFns[at]!(record);
    keys[at] = indexed;
    if (indexed.length === 1) {
      single[at]![0] = hashOf(indexed[0]!);
      hashes[at] = single[at]!;
    } else hashes[at] = indexed.map(hashOf);
  };

  const put = (company: string, id: string, record: T) => {
    const records = partition(company);
    // The ID's hash once: the lookup here and the add below both need it.
    const hash = hashOf(id);
    const place = records.placeOf(id, hash);
    const old = place < 0 ? undefined : records.at(place);
    if (!old && records.size >= maxPerCompany) throw StoreFull.instance;
    // `put` runs to its end without yielding: the arrays of keys and hashes serve every call.
    for (const at of uniqueAt) hashUnique(at, record);
    const clash = uniqueAt.length ? taken(company, id, record) : undefined;
    if (clash !== undefined) throw new Duplicate(clash);
    const size = sizeOf(record);
    if (budget && !budget.charge(company, size - (old?.size ?? 0))) throw StoreFull.instance;
    if (old) {
      unindex(company, id, old);
      old.live = false;
    }
    const entry = entryOf(record, size, id);
    for (const at of uniqueAt) {
      // One key's hash is kept in the entry itself; several keys' in an array the entry keeps.
      const indexed = hashes[at]!;
      indexUnder(company, at, id, indexed);
      setKeysOfEntry(entry, at, indexed.length === 1 ? indexed : [...indexed]);
      keys[at] = undefined;
    }
    if (old) records.replace(place, entry);
    else records.add(hash, entry);
    if (deferredAt.length) {
      let waiting = queued.get(company);
      if (!waiting) queued.set(company, (waiting = []));
      waiting.push(entry);
      // A record put again (a session at each change of state) leaves its old entry queued: once the queue
      // is twice what is stored, the dead entries go, so the queue never holds more than the store does.
      if (waiting.length > 2 * records.size + 1024) dropDead(waiting);
    }
  };
  const remove = (company: string, id: string) => {
    const records = byCompany.get(company);
    const entry = records?.get(id);
    if (!entry) return false;
    records!.delete(id);
    unindex(company, id, entry);
    entry.live = false;
    budget?.refund(company, entry.size);
    return true;
  };
  const page = (company: string, offset: number, limit: number): T[] => byCompany.get(company)?.page(offset, limit) ?? [];
  const find = (company: string, index: string, key: string) => {
    const at = indexNames.indexOf(index);
    if (at < 0) return [];
    if (deferred[at]) catchUp(company);
    const ids = lookups[at]!.get(company)?.get(deferred[at] ? key : hashOf(key));
    const records = byCompany.get(company);
    if (ids === undefined || !records) return [];
    const found = typeof ids === 'string' ? [records.get(ids)!.record] : [...ids].map((id) => records.get(id)!.record);
    // A unique index holds hashes: a record whose key only shares the hash is not found.
    return deferred[at] ? found : found.filter((record) => indexFns[at]!(record).includes(key));
  };

  // Async by signature only: each method does its work before returning a settled promise.
  return {
    get: async (company, id) => byCompany.get(company)?.get(id)?.record,
    // Asked of each company's records (companies are few, from the configuration): a map of every ID to its
    // owner cost one more insertion into a map as large as the store for every record stored (issue 14's bench).
    ownerOf: async (id) => {
      for (const [company, records] of byCompany) if (records.has(id)) return company;
      return undefined;
    },
    put: async (company, id, record) => put(company, id, record),
    putNow: put,
    delete: async (company, id) => remove(company, id),
    list: async (company) => [...(byCompany.get(company)?.values() ?? [])].map((entry) => entry.record),
    page: async (company, offset, limit) => page(company, offset, limit),
    count: async (company) => byCompany.get(company)?.size ?? 0,
    find: (company, index, key) => {
      const wait = deferred[indexNames.indexOf(index)] ? caughtUp(company) : undefined;
      return wait ? wait.then(() => find(company, index, key)) : Promise.resolve(find(company, index, key));
    },
    clear: (company) => {
      if (company === undefined) {
        byCompany.clear();
        for (const lookup of lookups) lookup.clear();
        queued.clear();
        return; // the caller clears the shared budget once for every collection
      }
      for (const entry of byCompany.get(company)?.values() ?? []) budget?.refund(company, entry.size);
      byCompany.delete(company);
      for (const lookup of lookups) lookup.delete(company);
      queued.delete(company);
    },
  };
}
