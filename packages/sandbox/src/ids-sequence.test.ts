// IDs as the README promises them: a prefix and 32 hex digits; from crypto without a seed (none repeats),
// reproducible with one; a refused request draws no ID.
import { describe, expect, it } from 'vitest';
import { createIds } from './ids.js';

const idPattern = (prefix: string) => new RegExp(`^${prefix}_[0-9a-f]{32}$`);
const draw = (ids: ReturnType<typeof createIds>, n: number, prefix = 'sess') => Array.from({ length: n }, () => ids.next(prefix));

describe('IDs without a seed', () => {
  it('are the prefix and 32 hex digits, none repeated, past many refills of the random pool', () => {
    const ids = createIds();
    expect(ids.seeded).toBe(false);
    const drawn = draw(ids, 1_000, 'blk');
    expect(drawn.filter((id) => !idPattern('blk').test(id))).toEqual([]);
    expect(new Set(drawn).size).toBe(1_000);
    // Each hex digit position takes many values: the bytes come from crypto, not a fixed pool.
    for (const position of [4, 20, 35]) expect(new Set(drawn.map((id) => id[position])).size).toBeGreaterThan(10);
  });

  it('differ between two generators (no ID repeats after a restart)', () => {
    const first = draw(createIds(), 50);
    const second = new Set(draw(createIds(), 50));
    expect(first.filter((id) => second.has(id))).toEqual([]);
  });

  it('random() gives numbers in [0, 1) spread over the range', () => {
    const ids = createIds();
    const numbers = Array.from({ length: 2_000 }, () => ids.random());
    expect(Math.min(...numbers)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...numbers)).toBeLessThan(1);
    const tenths = new Set(numbers.map((n) => Math.floor(n * 10)));
    expect(tenths.size).toBe(10);
    expect(new Set(numbers).size).toBeGreaterThan(1_990);
  });

  it('a scope hands out fresh IDs and its undo gives nothing back (random IDs need no rewind)', () => {
    const ids = createIds();
    const scope = ids.scope();
    const inScope = scope.ids.next('usr');
    expect(inScope).toMatch(idPattern('usr'));
    scope.undo();
    expect(ids.next('usr')).not.toBe(inScope);
  });
});

describe('IDs with a seed', () => {
  it('are the same sequence for the same seed, IDs and random numbers interleaved', () => {
    const run = (seed: number) => {
      const ids = createIds(seed);
      return [ids.next('sess'), ids.random(), ids.next('blk'), ids.random(), ids.next('usr')];
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    expect(createIds(7).seeded).toBe(true);
  });

  it('stay the same across versions: a recorded seeded run keeps matching', () => {
    const ids = createIds(7);
    expect(draw(ids, 2)).toEqual(['sess_' + SEED_7_FIRST, 'sess_' + SEED_7_SECOND]);
    expect(createIds(0).next('x')).toBe('x_' + SEED_0_FIRST);
    expect(createIds(2 ** 32 + 7).next('sess')).toBe('sess_' + SEED_7_FIRST); // the seed is taken as 32 bits
  });

  it('are 32 hex digits each, none repeated, with every digit at every position', () => {
    const drawn = draw(createIds(42), 2_000);
    expect(drawn.filter((id) => !idPattern('sess').test(id))).toEqual([]);
    expect(new Set(drawn).size).toBe(2_000);
    for (let position = 5; position < 37; position++) expect(new Set(drawn.map((id) => id[position])).size).toBe(16);
  });

  it('random() gives numbers in [0, 1) spread over the range', () => {
    const ids = createIds(3);
    const numbers = Array.from({ length: 2_000 }, () => ids.random());
    expect(Math.min(...numbers)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...numbers)).toBeLessThan(1);
    expect(new Set(numbers.map((n) => Math.floor(n * 10))).size).toBe(10);
    const mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });

  it('a refused request gives back what it drew: the next request gets the same IDs', () => {
    const ids = createIds(9);
    const scope = ids.scope();
    expect(scope.ids.seeded).toBe(true);
    const refusedId = scope.ids.next('sess');
    const refusedNumber = scope.ids.random();
    const refusedSecond = scope.ids.next('blk');
    scope.undo();
    expect(ids.next('sess')).toBe(refusedId);
    expect(ids.random()).toBe(refusedNumber);
    expect(ids.next('blk')).toBe(refusedSecond);
    // The sequence goes on as if the refused request had never come.
    const fresh = createIds(9);
    fresh.next('sess');
    fresh.random();
    fresh.next('blk');
    expect(ids.next('sess')).toBe(fresh.next('sess'));
  });

  it('a scope within a scope draws from the same view, and the outer undo gives all back', () => {
    const ids = createIds(9);
    const outer = ids.scope();
    const inner = outer.ids.scope();
    const first = inner.ids.next('sess');
    inner.undo(); // the inner view's undo is the outer's business
    const second = outer.ids.next('sess');
    expect(second).not.toBe(first);
    outer.undo();
    expect(draw(ids, 2)).toEqual([first, second]);
  });

  it('a refused request keeps its IDs when another request drew in between (no ID is handed out twice)', () => {
    const ids = createIds(11);
    const scope = ids.scope();
    const refused = scope.ids.next('sess');
    const other = ids.next('sess');
    scope.undo();
    const next = ids.next('sess');
    expect(new Set([refused, other, next]).size).toBe(3);
  });

  it('a refused request that drew only a random number gives it back', () => {
    const ids = createIds(12);
    const scope = ids.scope();
    const number = scope.ids.random();
    scope.undo();
    expect(ids.random()).toBe(number);
  });

  it('an undo with nothing drawn changes nothing', () => {
    const ids = createIds(13);
    const first = ids.next('sess');
    ids.scope().undo();
    expect([first, ids.next('sess')]).toEqual(draw(createIds(13), 2));
  });
});

const SEED_7_FIRST = '2316a329737a208aff8391338d65294e';
const SEED_7_SECOND = '722d016345461cc7acc40fc041ffe0e5';
const SEED_0_FIRST = '92ca2f0e3cd6e3f31b147dcc4c081dbf';
