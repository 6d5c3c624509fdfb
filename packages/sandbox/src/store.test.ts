import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { memoryState } from './state.js';
import { hashOf, memoryCollection } from './store.js';
import { storeContract } from './store-contract.test-helper.js';

storeContract('memory', async (limits) => ({ state: memoryState(limits), close: async () => {} }));

describe('memory store: an index that is not unique catches up when read', () => {
  type Tagged = { id: string; tags: string[] };
  const tagged = (id: string, ...tags: string[]): Tagged => ({ id, tags });
  const ids = (records: Tagged[]) => records.map((r) => r.id);

  it('finds what eager indexing would find, in the same order, after puts, replacements and deletes before any read', async () => {
    const store = memoryCollection<Tagged>({ indexes: { tag: (r) => r.tags } });
    await store.put('c', 't1', tagged('t1', 'x', 'y'));
    await store.put('c', 't2', tagged('t2', 'x'));
    await store.put('c', 't3', tagged('t3', 'y'));
    // Replaced: found by its new keys only, after the records indexed before its replacement.
    await store.put('c', 't1', tagged('t1', 'x', 'z'));
    await store.delete('c', 't2');
    await store.put('c', 't4', tagged('t4', 'x'));
    expect(ids(await store.find('c', 'tag', 'x'))).toEqual(['t1', 't4']);
    expect(ids(await store.find('c', 'tag', 'y'))).toEqual(['t3']);
    expect(ids(await store.find('c', 'tag', 'z'))).toEqual(['t1']);
    expect(await store.find('other', 'tag', 'x')).toEqual([]);
  });

  it('keeps taking new records after a read, and forgets a deleted or cleared one whether or not it was indexed', async () => {
    const store = memoryCollection<Tagged>({ indexes: { tag: (r) => r.tags } });
    await store.put('c', 't1', tagged('t1', 'x'));
    expect(ids(await store.find('c', 'tag', 'x'))).toEqual(['t1']);
    await store.put('c', 't2', tagged('t2', 'x'));
    await store.put('c', 't1', tagged('t1', 'x'));
    expect(ids(await store.find('c', 'tag', 'x'))).toEqual(['t2', 't1']);
    await store.delete('c', 't2');
    await store.put('c', 't3', tagged('t3', 'x'));
    await store.delete('c', 't3');
    expect(ids(await store.find('c', 'tag', 'x'))).toEqual(['t1']);
    await store.put('c', 't5', tagged('t5', 'x'));
    store.clear('c');
    expect(await store.find('c', 'tag', 'x')).toEqual([]);
    await store.put('c', 't6', tagged('t6', 'x'));
    store.clear();
    await store.put('c', 't7', tagged('t7', 'x'));
    expect(ids(await store.find('c', 'tag', 'x'))).toEqual(['t7']);
  });

  it('catches up after many puts a piece per turn: other work runs before the read answers, two reads at once see every record, a clear stops it', async () => {
    const store = memoryCollection<Tagged>({ indexes: { tag: (r) => r.tags } });
    for (let i = 0; i < 10_000; i++) await store.put('c', `t${i}`, tagged(`t${i}`, i % 2 ? 'odd' : 'even'));
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    const [odd, even] = await Promise.all([store.find('c', 'tag', 'odd'), store.find('c', 'tag', 'even')]);
    expect(ranBetween).toBe(true);
    expect([odd.length, odd[0]!.id, odd.at(-1)!.id]).toEqual([5_000, 't1', 't9999']);
    expect([even.length, even[0]!.id, even.at(-1)!.id]).toEqual([5_000, 't0', 't9998']);
    for (let i = 0; i < 10_000; i++) await store.put('d', `u${i}`, tagged(`u${i}`, 'x'));
    const reading = store.find('d', 'tag', 'x');
    store.clear('d');
    await store.put('d', 'u_new', tagged('u_new', 'x'));
    expect(ids(await reading)).toEqual(['u_new']);
    expect(ids(await store.find('d', 'tag', 'x'))).toEqual(['u_new']);
  });

  // W5: what a store keeps follows what it stores. A session is put again at every change of state and
  // its parent index is read rarely: replaced entries must not pile up waiting for that read.
  it('keeps no replaced record alive while no read comes: the same record put 20,000 times holds the heap of one', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const store = memoryCollection<Tagged & { text: string }>({ indexes: { tag: (r) => r.tags } });
    gc();
    const before = process.memoryUsage().heapUsed;
    // 20,000 replacements of 10 kB each (a new flat string each time): 200 MB if each were kept.
    for (let i = 0; i < 20_000; i++) await store.put('c', 'same', { ...tagged('same', 'x'), text: `${i} ${Buffer.alloc(10_000, 46).toString()}` });
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(40_000_000);
    expect((await store.find('c', 'tag', 'x')).map((r) => r.text.slice(0, 5))).toEqual(['19999']);
  });

  it('keeps a unique index current at every put beside a deferred one', async () => {
    const store = memoryCollection<Tagged & { name: string }>({ indexes: { tag: (r) => r.tags, name: (r) => [r.name] }, unique: ['name'] });
    await store.put('c', 't1', { ...tagged('t1', 'x'), name: 'one' });
    await expect(store.put('c', 't2', { ...tagged('t2', 'x'), name: 'one' })).rejects.toThrow(/same name/);
    expect(ids(await store.find('c', 'name', 'one'))).toEqual(['t1']);
    expect(ids(await store.find('c', 'tag', 'x'))).toEqual(['t1']);
  });
});

describe('memory store: a unique index holds hashes of its keys', () => {
  type Named = { id: string; name: string };
  // Two keys with the same hash (found by trying `key-0`, `key-1`, ... until two met).
  const [first, second] = ['key-65487', 'key-225080'];

  it('has test keys that share a hash', () => {
    expect(hashOf(first)).toBe(hashOf(second));
  });

  it('tells apart two keys that share a hash: both stored, each found alone, each still refused again, and a delete frees only its own', async () => {
    const store = memoryCollection<Named>({ indexes: { name: (r) => [r.name] }, unique: ['name'] });
    await store.put('c', 'a', { id: 'a', name: first });
    await store.put('c', 'b', { id: 'b', name: second });
    expect((await store.find('c', 'name', first)).map((r) => r.id)).toEqual(['a']);
    expect((await store.find('c', 'name', second)).map((r) => r.id)).toEqual(['b']);
    await expect(store.put('c', 'a2', { id: 'a2', name: first })).rejects.toThrow(/same name/);
    await expect(store.put('c', 'b2', { id: 'b2', name: second })).rejects.toThrow(/same name/);
    // A record put again under its own key is no duplicate of the other.
    await store.put('c', 'b', { id: 'b', name: second });
    expect(await store.delete('c', 'a')).toBe(true);
    expect(await store.find('c', 'name', first)).toEqual([]);
    expect((await store.find('c', 'name', second)).map((r) => r.id)).toEqual(['b']);
    await store.put('c', 'a3', { id: 'a3', name: first });
    await expect(store.put('c', 'b3', { id: 'b3', name: second })).rejects.toThrow(/same name/);
  });

  it('keeps a replaced record under its new key only', async () => {
    const store = memoryCollection<Named>({ indexes: { name: (r) => [r.name] }, unique: ['name'] });
    await store.put('c', 'a', { id: 'a', name: first });
    await store.put('c', 'a', { id: 'a', name: second });
    expect(await store.find('c', 'name', first)).toEqual([]);
    await store.put('c', 'b', { id: 'b', name: first });
    await expect(store.put('c', 'x', { id: 'x', name: second })).rejects.toThrow(/same name/);
  });
});
