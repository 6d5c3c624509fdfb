// The memory store's rules (store.ts) at their edges: which records a read finds and in what order, what
// a put refuses and what a refusal leaves stored, the byte budget's bounds, and that a big read never
// holds the event loop. The shared contract (store-contract.test-helper.ts) runs the state's own
// collections; these run collections shaped to reach what those never do (three indexes, two unique ones,
// several unique keys a record).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { StoreFull } from './errors.js';
import { createBudget, Duplicate, hashOf, keyedMutex, memoryCollection } from './store.js';

type Rec = {
  id: string;
  tags: string[];
  names: string[];
  code: string;
  size?: number;
};
const rec = (id: string, fields: Partial<Rec> = {}): Rec => ({
  id,
  tags: [],
  names: [],
  code: `code-${id}`,
  ...fields,
});
const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Three indexes: two deferred (tag, code) around a unique one (name) whose record may hold several keys. */
const threeIndexes = (extra: Parameters<typeof memoryCollection<Rec>>[0] = {}) =>
  memoryCollection<Rec>({
    indexes: {
      tag: (r) => r.tags,
      name: (r) => r.names,
      code: (r) => [r.code],
    },
    unique: ['name'],
    ...extra,
  });

describe('memory store: the byte budget', () => {
  it('lets a company fill its budget exactly, refuses one byte more, and keeps each company apart', () => {
    const budget = createBudget(100);
    expect(budget.charge('a', 100)).toBe(true);
    expect(budget.charge('a', 1)).toBe(false);
    expect(budget.charge('b', 100)).toBe(true);
    budget.refund('a', 40);
    expect(budget.charge('a', 41)).toBe(false);
    expect(budget.charge('a', 40)).toBe(true);
  });

  it('never counts below nothing: a refund of more than was charged frees no extra room', () => {
    const budget = createBudget(100);
    budget.charge('a', 10);
    budget.refund('a', 50);
    expect(budget.charge('a', 100)).toBe(true);
    expect(budget.charge('a', 1)).toBe(false);
    budget.refund('never-charged', 30);
    expect(budget.charge('never-charged', 101)).toBe(false);
  });

  it('clears one company or every company', () => {
    const budget = createBudget(100);
    budget.charge('a', 100);
    budget.charge('b', 100);
    budget.clear('a');
    expect(budget.charge('a', 100)).toBe(true);
    expect(budget.charge('b', 1)).toBe(false);
    budget.clear();
    expect(budget.charge('a', 100)).toBe(true);
    expect(budget.charge('b', 100)).toBe(true);
  });

  it('charges a replaced record only for what it grew by, and refuses a growth over the budget leaving the old record found', async () => {
    const budget = createBudget(100);
    const store = threeIndexes({ budget, sizeOf: (r) => r.size ?? 0 });
    await store.put('c', 'r1', rec('r1', { size: 60, tags: ['old'], names: ['one'] }));
    await store.put('c', 'r1', rec('r1', { size: 90, tags: ['old'], names: ['one'] }));
    await expect(store.put('c', 'r1', rec('r1', { size: 101, tags: ['new'], names: ['uno'] }))).rejects.toBe(StoreFull.instance);
    expect((await store.get('c', 'r1'))!.size).toBe(90);
    expect(ids(await store.find('c', 'tag', 'old'))).toEqual(['r1']);
    expect(await store.find('c', 'tag', 'new')).toEqual([]);
    expect(ids(await store.find('c', 'name', 'one'))).toEqual(['r1']);
    expect(await store.find('c', 'name', 'uno')).toEqual([]);
    // Shrinking gives bytes back.
    await store.put('c', 'r1', rec('r1', { size: 10, names: ['one'] }));
    await store.put('c', 'r2', rec('r2', { size: 90 }));
    await expect(store.put('c', 'r3', rec('r3', { size: 1 }))).rejects.toBe(StoreFull.instance);
    expect(await store.count('c')).toBe(2);
  });

  it('charges nothing for a put refused as a duplicate', async () => {
    const budget = createBudget(100);
    const store = threeIndexes({ budget, sizeOf: (r) => r.size ?? 0 });
    await store.put('c', 'r1', rec('r1', { size: 50, names: ['one'] }));
    await expect(store.put('c', 'r2', rec('r2', { size: 50, names: ['one'] }))).rejects.toBeInstanceOf(Duplicate);
    await store.put('c', 'r3', rec('r3', { size: 50, names: ['three'] }));
  });

  it("gives a cleared company's bytes back, and a deleted record's, but not another company's", async () => {
    const budget = createBudget(100);
    const store = threeIndexes({ budget, sizeOf: (r) => r.size ?? 0 });
    await store.put('c', 'r1', rec('r1', { size: 100 }));
    await store.put('d', 'r2', rec('r2', { size: 100 }));
    store.clear('c');
    await store.put('c', 'r3', rec('r3', { size: 100 }));
    await expect(store.put('d', 'r4', rec('r4', { size: 1 }))).rejects.toBe(StoreFull.instance);
    expect(await store.delete('d', 'r2')).toBe(true);
    await store.put('d', 'r4', rec('r4', { size: 100 }));
  });
});

describe('memory store: the per-company cap', () => {
  it('holds exactly maxPerCompany records, lets one be replaced at the cap, and counts each company apart', async () => {
    const store = threeIndexes({ maxPerCompany: 2 });
    await store.put('c', 'r1', rec('r1'));
    await store.put('c', 'r2', rec('r2'));
    await expect(store.put('c', 'r3', rec('r3', { tags: ['t'] }))).rejects.toBe(StoreFull.instance);
    expect(await store.find('c', 'tag', 't')).toEqual([]);
    await store.put('c', 'r2', rec('r2', { tags: ['t'] }));
    await store.put('d', 'r3', rec('r3'));
    expect(ids(await store.list('c'))).toEqual(['r1', 'r2']);
    expect(ids(await store.find('c', 'tag', 't'))).toEqual(['r2']);
  });
});

describe('memory store: pages', () => {
  it('gives at most `limit` records from `offset` on, in insertion order', async () => {
    const store = threeIndexes();
    for (const id of ['r0', 'r1', 'r2', 'r3', 'r4']) await store.put('c', id, rec(id));
    expect(ids(await store.page('c', 0, 2))).toEqual(['r0', 'r1']);
    expect(ids(await store.page('c', 2, 2))).toEqual(['r2', 'r3']);
    expect(ids(await store.page('c', 4, 2))).toEqual(['r4']);
    expect(await store.page('c', 0, 0)).toEqual([]);
    expect(await store.page('nobody', 0, 5)).toEqual([]);
    expect(await store.count('nobody')).toBe(0);
    expect(await store.list('nobody')).toEqual([]);
  });
});

describe('memory store: indexes beyond the first two, and unique ones with several keys', () => {
  it('finds by each of three indexes, and after a replacement or a delete by none of the old keys', async () => {
    const store = threeIndexes();
    await store.put('c', 'r1', rec('r1', { tags: ['t1'], names: ['n1', 'n1b'], code: 'k1' }));
    await store.put('c', 'r2', rec('r2', { tags: ['t1', 't2'], names: ['n2'], code: 'k1' }));
    expect(ids(await store.find('c', 'tag', 't1'))).toEqual(['r1', 'r2']);
    expect(ids(await store.find('c', 'code', 'k1'))).toEqual(['r1', 'r2']);
    expect(ids(await store.find('c', 'name', 'n1b'))).toEqual(['r1']);
    await store.put('c', 'r1', rec('r1', { tags: ['t3'], names: ['n3'], code: 'k3' }));
    expect(ids(await store.find('c', 'tag', 't1'))).toEqual(['r2']);
    expect(ids(await store.find('c', 'code', 'k1'))).toEqual(['r2']);
    expect(ids(await store.find('c', 'code', 'k3'))).toEqual(['r1']);
    expect(await store.find('c', 'name', 'n1')).toEqual([]);
    expect(await store.find('c', 'name', 'n1b')).toEqual([]);
    expect(ids(await store.find('c', 'name', 'n3'))).toEqual(['r1']);
    expect(await store.delete('c', 'r2')).toBe(true);
    expect(await store.find('c', 'tag', 't1')).toEqual([]);
    expect(await store.find('c', 'tag', 't2')).toEqual([]);
    expect(await store.find('c', 'code', 'k1')).toEqual([]);
    expect(await store.find('c', 'name', 'n2')).toEqual([]);
    // The old keys are free again.
    await store.put('c', 'r4', rec('r4', { names: ['n1', 'n2'] }));
    expect(ids(await store.find('c', 'name', 'n2'))).toEqual(['r4']);
    // r1's keys after its replacement (one) and r4's (two) go with them.
    expect(await store.delete('c', 'r1')).toBe(true);
    expect(await store.delete('c', 'r4')).toBe(true);
    await store.put('c', 'r5', rec('r5', { names: ['n3', 'n1'] }));
    expect(ids(await store.find('c', 'name', 'n1'))).toEqual(['r5']);
    expect(ids(await store.find('c', 'name', 'n3'))).toEqual(['r5']);
    expect(await store.find('c', 'name', 'n2')).toEqual([]);
  });

  it('refuses a record for any one of its unique keys, and names the index that refused it', async () => {
    const store = memoryCollection<Rec>({
      indexes: {
        tag: (r) => r.tags,
        name: (r) => r.names,
        code: (r) => [r.code],
      },
      unique: ['name', 'code'],
    });
    await store.put('c', 'r1', rec('r1', { names: ['a', 'b', 'c'], code: 'k1' }));
    const refused = async (record: Rec) => {
      const error = await store.put('c', record.id, record).then(
        () => undefined,
        (e: unknown) => e
      );
      expect(error).toBeInstanceOf(Duplicate);
      return [(error as Duplicate).index, (error as Duplicate).message];
    };
    expect(await refused(rec('r2', { names: ['x', 'c'] }))).toEqual(['name', 'a record with the same name exists']);
    expect(await refused(rec('r2', { names: ['x'], code: 'k1' }))).toEqual(['code', 'a record with the same code exists']);
    expect(await store.get('c', 'r2')).toBeUndefined();
    // A record put again keeps its own keys; another company holds the same ones.
    await store.put('c', 'r1', rec('r1', { names: ['c', 'b', 'a'], code: 'k1' }));
    await store.put('d', 'r2', rec('r2', { names: ['a'], code: 'k1' }));
    expect(ids(await store.find('c', 'code', 'k1'))).toEqual(['r1']);
    expect(ids(await store.find('d', 'name', 'a'))).toEqual(['r2']);
  });

  it('stores a record with no key in an index, and a record that lists one key twice', async () => {
    const store = threeIndexes();
    await store.put('c', 'r1', rec('r1', { names: [] }));
    await store.put('c', 'r2', rec('r2', { names: [] }));
    await store.put('c', 'r3', rec('r3', { names: ['twice', 'twice'], tags: ['t', 't'] }));
    expect(ids(await store.find('c', 'name', 'twice'))).toEqual(['r3']);
    expect(ids(await store.find('c', 'tag', 't'))).toEqual(['r3']);
    await store.put('c', 'r3', rec('r3', { names: ['twice'], tags: ['t'] }));
    expect(ids(await store.find('c', 'name', 'twice'))).toEqual(['r3']);
    expect(await store.delete('c', 'r3')).toBe(true);
    expect(await store.find('c', 'name', 'twice')).toEqual([]);
    expect(await store.find('c', 'tag', 't')).toEqual([]);
    await store.put('c', 'r4', rec('r4', { names: ['twice'] }));
  });

  it('finds nothing by an index it does not have', async () => {
    const store = threeIndexes();
    await store.put('c', 'r1', rec('r1', { tags: ['t'], names: ['n'] }));
    expect(await store.find('c', 'nope', 't')).toEqual([]);
    expect(await store.find('c', 'nope', 'n')).toEqual([]);
    // The first index (position 0) is found by its name.
    expect(ids(await store.find('c', 'tag', 't'))).toEqual(['r1']);
  });

  it('keeps the order of a shared key as records came to it, through removals that leave one or none', async () => {
    const store = threeIndexes();
    for (const id of ['r1', 'r2', 'r3']) await store.put('c', id, rec(id, { tags: ['t'], code: 'same' }));
    expect(ids(await store.find('c', 'tag', 't'))).toEqual(['r1', 'r2', 'r3']);
    await store.delete('c', 'r2');
    expect(ids(await store.find('c', 'tag', 't'))).toEqual(['r1', 'r3']);
    await store.delete('c', 'r1');
    expect(ids(await store.find('c', 'code', 'same'))).toEqual(['r3']);
    await store.put('c', 'r5', rec('r5', { tags: ['t'], code: 'same' }));
    expect(ids(await store.find('c', 'tag', 't'))).toEqual(['r3', 'r5']);
    await store.delete('c', 'r3');
    await store.delete('c', 'r5');
    expect(await store.find('c', 'tag', 't')).toEqual([]);
    await store.put('c', 'r6', rec('r6', { tags: ['t'] }));
    expect(ids(await store.find('c', 'tag', 't'))).toEqual(['r6']);
  });
});

describe('memory store: a unique index after a clear', () => {
  it('forgets the keys of the company cleared, and of everyone, and keeps another company’s', async () => {
    const store = threeIndexes();
    await store.put('c', 'r1', rec('r1', { names: ['n'] }));
    await store.put('d', 'r2', rec('r2', { names: ['n'] }));
    store.clear('c');
    await store.put('c', 'r3', rec('r3', { names: ['other'] }));
    expect(await store.find('c', 'name', 'n')).toEqual([]);
    expect(ids(await store.find('d', 'name', 'n'))).toEqual(['r2']);
    await expect(store.put('d', 'r4', rec('r4', { names: ['n'] }))).rejects.toBeInstanceOf(Duplicate);
    store.clear();
    await store.put('d', 'r5', rec('r5', { names: ['other'] }));
    expect(await store.find('d', 'name', 'n')).toEqual([]);
    expect(await store.ownerOf('r2')).toBeUndefined();
    expect(await store.ownerOf('r5')).toBe('d');
  });
});

describe('memory store: a big read never holds the event loop, every time', () => {
  it('lets other work run during each catch-up of many puts, not only the first', async () => {
    const store = threeIndexes();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5_000; i++) await store.put('c', `r${round}-${i}`, rec(`r${round}-${i}`, { tags: ['t'] }));
      let ranBetween = false;
      setImmediate(() => (ranBetween = true));
      const found = await store.find('c', 'tag', 't');
      expect([round, ranBetween, found.length]).toEqual([round, true, 5_000 * (round + 1)]);
    }
  });

  it('answers a read of a few queued records at once, with no turn of the event loop', async () => {
    const store = threeIndexes();
    await store.put('c', 'r1', rec('r1', { tags: ['t'] }));
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    expect(ids(await store.find('c', 'tag', 't'))).toEqual(['r1']);
    expect(ranBetween).toBe(false);
  });
});

describe('memory store: unique keys as hashes', () => {
  it('gives different keys different hashes, the same key the same one, each a 31-bit integer', () => {
    const keys = ['', 'a', 'b', 'ab', 'ba', 'jane@example.org', 'doc:x1', 'Zoë', '\u0000'];
    const hashes = keys.map(hashOf);
    expect(new Set(hashes).size).toBe(keys.length);
    expect(hashOf('jane@example.org')).toBe(hashes[5]);
    for (const hash of hashes) expect(Number.isInteger(hash) && hash >= -(2 ** 30) && hash < 2 ** 30).toBe(true);
  });
});

describe('keyedMutex: waiting work', () => {
  it('runs queued work of one key after a failure in the middle, and gives each caller its own result', async () => {
    const exclusive = keyedMutex();
    const order: string[] = [];
    const results = await Promise.allSettled([
      exclusive('k', async () => (await turn(), order.push('1'), 1)),
      exclusive('k', async () => {
        order.push('2');
        throw new Error('two');
      }),
      exclusive('k', () => {
        order.push('3');
        throw new Error('three at once');
      }),
      exclusive('k', async () => (order.push('4'), 4)),
    ]);
    expect(order).toEqual(['1', '2', '3', '4']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 'two', 'three at once', 4]);
  });
});

describe('memory store: what a company never seen asks', () => {
  it('finds, gets, deletes and clears nothing, and a clear of it leaves its byte budget whole', async () => {
    const budget = createBudget(100);
    const store = threeIndexes({ budget, sizeOf: (r) => r.size ?? 0 });
    await store.put('c', 'r1', rec('r1'));
    expect(await store.get('nobody', 'r1')).toBeUndefined();
    expect(await store.delete('nobody', 'r1')).toBe(false);
    expect(await store.find('nobody', 'tag', 't')).toEqual([]);
    expect(await store.find('nobody', 'name', 'n')).toEqual([]);
    store.clear('nobody');
    await expect(store.put('nobody', 'r2', rec('r2', { size: 101 }))).rejects.toBe(StoreFull.instance);
    await store.put('nobody', 'r2', rec('r2', { size: 100 }));
  });

  it('charges nothing for a collection without sizeOf, and keeps the shared budget counting for the others', async () => {
    const budget = createBudget(100);
    const free = memoryCollection<Rec>({ budget });
    const sized = threeIndexes({ budget, sizeOf: (r) => r.size ?? 0 });
    await free.put('c', 'r1', rec('r1', { size: 1_000 }));
    await sized.put('c', 'r2', rec('r2', { size: 100 }));
    await expect(sized.put('c', 'r3', rec('r3', { size: 1 }))).rejects.toBe(StoreFull.instance);
  });
});

describe('memory store: many replacements before a read', () => {
  it('still finds every record once the queue of replaced ones has been pruned', async () => {
    const store = threeIndexes();
    for (const id of ['r0', 'r1', 'r2', 'r3', 'r4']) await store.put('c', id, rec(id, { tags: ['t'] }));
    for (let i = 0; i < 3_000; i++) await store.put('c', 'busy', rec('busy', { tags: [`v${i}`] }));
    expect(ids(await store.find('c', 'tag', 't'))).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    expect(ids(await store.find('c', 'tag', 'v2999'))).toEqual(['busy']);
    expect(await store.find('c', 'tag', 'v0')).toEqual([]);
  });

  it('catches up a large queue over several turns of the event loop, not in one', async () => {
    const store = threeIndexes();
    for (let i = 0; i < 6_000; i++) await store.put('c', `r${i}`, rec(`r${i}`, { tags: ['t'] }));
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const found = await store.find('c', 'tag', 't');
    counting = false;
    expect(found.length).toBe(6_000);
    // 6,000 entries at 1,024 a turn: the first piece at once, the other five each after a turn.
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});

describe('keyedMutex: memory', () => {
  it('keeps no lane for each of 200,000 keys used once', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const exclusive = keyedMutex();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 200_000; n++) await exclusive(`key number ${n}`, async () => n);
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(15_000_000);
    expect(await exclusive('key number 5', async () => 'still works')).toBe('still works');
  });
});
