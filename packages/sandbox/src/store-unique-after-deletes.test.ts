// The memory store's unique index (a table of its keys' hashes, store.ts) through growth, deletes and
// keys put again: a key is refused exactly while a record holds it.
import { describe, expect, it } from 'vitest';
import { Duplicate, memoryCollection } from './store.js';

type Named = { id: string; name: string };

describe('memory store: a unique index through thousands of puts and deletes', () => {
  it('refuses a key while a record holds it and takes it again once that record is deleted or renamed', async () => {
    const store = memoryCollection<Named>({ indexes: { name: (r) => [r.name] }, unique: ['name'] });
    for (let n = 0; n < 3000; n++) await store.put('c', `id-${n}`, { id: `id-${n}`, name: `name-${n}` });
    // Two thirds deleted, a sixth renamed: deleted slots outnumber the held ones.
    for (let n = 0; n < 3000; n++) {
      if (n % 3 !== 0) await store.delete('c', `id-${n}`);
      else if (n % 2 === 0) await store.put('c', `id-${n}`, { id: `id-${n}`, name: `renamed-${n}` });
    }
    for (let n = 0; n < 3000; n++) {
      const held = n % 3 === 0 && n % 2 !== 0;
      const put = store.put('c', `again-${n}`, { id: `again-${n}`, name: `name-${n}` });
      if (held) await expect(put).rejects.toBeInstanceOf(Duplicate);
      else await put;
      if (n % 6 === 0) await expect(store.put('c', `other-${n}`, { id: `other-${n}`, name: `renamed-${n}` })).rejects.toBeInstanceOf(Duplicate);
    }
    expect((await store.find('c', 'name', 'name-1')).map((r) => r.id)).toEqual(['again-1']);
    expect((await store.find('c', 'name', 'name-3')).map((r) => r.id)).toEqual(['id-3']);
    expect((await store.find('c', 'name', 'renamed-6')).map((r) => r.id)).toEqual(['id-6']);
    expect(await store.find('c', 'name', 'name-6')).toEqual([{ id: 'again-6', name: 'name-6' }]);
    // Another company holds its own keys.
    await store.put('d', 'x', { id: 'x', name: 'name-3' });
  });
});
