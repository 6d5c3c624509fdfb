// The blacklist identity's hash worked out from the record (blacklist-identity.ts), which the memory store's
// unique index takes in place of hashing the identity's string: the same number, or none.
import { describe, expect, it } from 'vitest';
import { identityHashOf, identityOf } from './blacklist-identity.js';
import { defaultLimits } from './limits.js';
import { memoryState, type BlacklistRecord } from './state.js';
import { Duplicate, hashOf } from './store.js';

type Fields = Omit<BlacklistRecord, 'id'>;
const pieces = ['Doe', 'JANE', 'ab12', ' x', 'y ', 'a b', 'Q"R', 'back\\slash', 'tab\t', 'Ünïcode', 'İstanbul', '\u00a0nbsp', '', 'Z', '0-9_~!'];

describe('blacklist identity: its hash from the record', () => {
  it('is the hash of the identity string whenever it is given, for fields of every kind', () => {
    let given = 0;
    let seed = 7;
    const pick = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const at = seed % (pieces.length + 3);
      return at >= pieces.length ? undefined : pieces[at];
    };
    for (let n = 0; n < 3000; n++) {
      const record: Fields = { reason: 'r', firstName: pick(), lastName: pick(), personalNumber: pick(), documentNumber: pick() };
      if (n % 10 === 0) record.birthday = '1990-01-02';
      const hash = identityHashOf(record);
      if (hash === undefined) continue;
      given++;
      expect(hash).toBe(hashOf(identityOf(record)));
    }
    // Most records are plain enough to be hashed without their string.
    expect(given).toBeGreaterThan(200);
  });

  it('is given for plain ASCII fields in any case and none for a birthday or text that trimming or JSON would change', () => {
    const plain: Fields = { reason: 'Bench', documentNumber: 'BENCH-1-23', firstName: 'Jane Ann', lastName: 'DOE' };
    expect(identityHashOf(plain)).toBe(hashOf(identityOf(plain)));
    // The same person in another case is the same identity, and the same hash.
    expect(identityHashOf({ ...plain, documentNumber: 'bench-1-23', lastName: 'doe' })).toBe(identityHashOf(plain));
    expect(identityHashOf({ ...plain, documentNumber: 'BENCH-1-24' })).not.toBe(identityHashOf(plain));
    for (const odd of [' padded', 'padded ', 'quo"te', 'Ünï', 'tab\tin']) expect(identityHashOf({ ...plain, lastName: odd })).toBeUndefined();
    expect(identityHashOf({ ...plain, birthday: '1990-01-02' })).toBeUndefined();
  });

  it('lets the memory store refuse the same person whichever way each record was hashed', async () => {
    const { blacklist } = memoryState(defaultLimits);
    // Hashed from the record (plain), then asked again in forms hashed from their identity string (padded, quoted).
    await blacklist.put('c', 'blk_1', { id: 'blk_1', reason: 'r', documentNumber: 'AB-1', lastName: 'DOE' });
    await expect(blacklist.put('c', 'blk_2', { id: 'blk_2', reason: 'r', documentNumber: ' ab-1 ', lastName: 'doe' })).rejects.toBeInstanceOf(Duplicate);
    await blacklist.put('c', 'blk_3', { id: 'blk_3', reason: 'r', documentNumber: ' "Q" ' });
    await expect(blacklist.put('c', 'blk_4', { id: 'blk_4', reason: 'r', documentNumber: '"q"' })).rejects.toBeInstanceOf(Duplicate);
    expect((await blacklist.find('c', 'identity', identityOf({ reason: 'x', documentNumber: 'ab-1', lastName: 'Doe' }))).map((r) => r.id)).toEqual(['blk_1']);
    await blacklist.delete('c', 'blk_1');
    await blacklist.put('c', 'blk_5', { id: 'blk_5', reason: 'r', documentNumber: ' AB-1', lastName: 'Doe ' });
  });
});
