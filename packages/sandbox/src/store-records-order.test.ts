// The memory store's records by ID (a table of their IDs' hashes, store.ts): found by ID, listed and paged
// in the order their IDs were first put, through deletes, replacements, IDs that share a hash and growth.
import { describe, expect, it } from 'vitest';
import { hashOf, memoryCollection } from './store.js';

type Rec = { id: string; n: number };
const rec = (id: string, n = 0): Rec => ({ id, n });
const ids = (records: Rec[]) => records.map((r) => r.id);

describe('memory store: records by ID, in the order first put', () => {
  // Two IDs with the same hash (store.test.ts found them for the unique index).
  const [first, second] = ['key-65487', 'key-225080'];

  it('keeps two IDs that share a hash apart: each found, replaced and deleted alone', async () => {
    expect(hashOf(first)).toBe(hashOf(second));
    const store = memoryCollection<Rec>();
    await store.put('c', first, rec(first, 1));
    await store.put('c', second, rec(second, 2));
    expect((await store.get('c', first))?.n).toBe(1);
    expect((await store.get('c', second))?.n).toBe(2);
    await store.put('c', second, rec(second, 3));
    expect((await store.get('c', first))?.n).toBe(1);
    expect(await store.count('c')).toBe(2);
    expect(await store.delete('c', first)).toBe(true);
    expect(await store.get('c', first)).toBeUndefined();
    expect((await store.get('c', second))?.n).toBe(3);
    expect(await store.delete('c', first)).toBe(false);
    expect(await store.ownerOf(second)).toBe('c');
    expect(await store.ownerOf(first)).toBeUndefined();
    // Put again after its delete: last in the order now.
    await store.put('c', first, rec(first, 4));
    expect(ids(await store.list('c'))).toEqual([second, first]);
  });

  it('keeps the order of first puts through replacements, and pages it from any offset', async () => {
    const store = memoryCollection<Rec>();
    for (let n = 0; n < 50; n++) await store.put('c', `r${n}`, rec(`r${n}`, n));
    await store.put('c', 'r10', rec('r10', 100));
    expect(ids(await store.page('c', 9, 3))).toEqual(['r9', 'r10', 'r11']);
    expect((await store.page('c', 10, 1))[0]?.n).toBe(100);
    expect(ids(await store.page('c', 48, 10))).toEqual(['r48', 'r49']);
    expect(await store.page('c', 50, 10)).toEqual([]);
    expect(await store.page('c', 0, 0)).toEqual([]);
    expect(await store.page('nobody', 0, 10)).toEqual([]);
  });

  it('keeps the order and every lookup through thousands of deletes (its holes closed up) and more puts', async () => {
    const store = memoryCollection<Rec>();
    const all = Array.from({ length: 5000 }, (_, n) => `id-${n}`);
    for (const id of all) await store.put('c', id, rec(id));
    // Every record but each seventh deleted: more holes than records left, many times over the bound.
    for (const [n, id] of all.entries()) if (n % 7 !== 0) expect(await store.delete('c', id)).toBe(true);
    const left = all.filter((_, n) => n % 7 === 0);
    for (let n = 0; n < 300; n++) await store.put('c', `new-${n}`, rec(`new-${n}`));
    const expected = [...left, ...Array.from({ length: 300 }, (_, n) => `new-${n}`)];
    expect(await store.count('c')).toBe(expected.length);
    expect(ids(await store.list('c'))).toEqual(expected);
    expect(ids(await store.page('c', 700, 20))).toEqual(expected.slice(700, 720));
    for (const id of expected) expect((await store.get('c', id))?.id).toBe(id);
    for (const [n, id] of all.entries()) if (n % 7 !== 0) expect(await store.get('c', id)).toBeUndefined();
    // A replacement after the close-up keeps its place.
    await store.put('c', left[3]!, rec(left[3]!, 9));
    expect((await store.page('c', 3, 1))[0]?.n).toBe(9);
  });

  it('pages as before for offsets and limits that are not whole numbers, with or without holes', async () => {
    const store = memoryCollection<Rec>();
    for (let n = 0; n < 6; n++) await store.put('c', `r${n}`, rec(`r${n}`));
    expect(ids(await store.page('c', 1.5, 2))).toEqual(['r2', 'r3']);
    expect(ids(await store.page('c', -1, 2))).toEqual(['r0', 'r1']);
    expect(ids(await store.page('c', 4, Infinity))).toEqual(['r4', 'r5']);
    expect(ids(await store.page('c', 0, 1.5))).toEqual(['r0', 'r1']);
    await store.delete('c', 'r1');
    expect(ids(await store.page('c', 1, 2))).toEqual(['r2', 'r3']);
    expect(ids(await store.page('c', 1.5, 2))).toEqual(['r3', 'r4']);
  });
});
