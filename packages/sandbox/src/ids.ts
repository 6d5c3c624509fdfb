/**
 * Identifiers from a seeded generator (SplitMix32), so that the same seed and the same requests give the
 * same identifiers. Each kind has its prefix: `sess_…`, `blk_…`, `usr_…`.
 */
export type Ids = { next(prefix: string): string; random(): number };

export function createIds(seed: number): Ids {
  let state = seed >>> 0;
  const next32 = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  return {
    next: (prefix) => `${prefix}_${next32().toString(16).padStart(8, '0')}${next32().toString(16).padStart(8, '0')}`,
    random: () => next32() / 2 ** 32,
  };
}
