/**
 * Identifiers: `sess_…`, `blk_…`, `usr_…` followed by 32 hex digits (128 bits).
 *
 * Without a seed they come from `crypto` (128 random bits each), so one company's IDs say nothing about
 * another's, and no ID repeats after a restart or a reset. With a seed they come from a seeded generator
 * (SplitMix32, four draws an ID), so that the same seed and the same requests give the same IDs: that is
 * for tests, never for a sandbox that others can reach, since one ID then predicts the next.
 */
import { randomFillSync } from 'node:crypto';

export type Ids = {
  next(prefix: string): string;
  /** A number in [0, 1), from the same source as the IDs. */
  random(): number;
  /** Whether the IDs are reproducible (a seed was given). */
  readonly seeded: boolean;
  /**
   * A view of the generator for one request: if the request is refused, `undo()` gives back what it drew,
   * so a refused request consumes no ID (when nothing else drew in between; otherwise it keeps them).
   */
  scope(): { ids: Ids; undo(): void };
};

const hex32 = (n: number) => n.toString(16).padStart(8, '0');

function seededIds(seed: number): Ids {
  let state = seed >>> 0;
  let draws = 0;
  const next32 = () => {
    draws++;
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const ids: Ids = {
    seeded: true,
    next: (prefix) => `${prefix}_${hex32(next32())}${hex32(next32())}${hex32(next32())}${hex32(next32())}`,
    random: () => next32() / 2 ** 32,
    scope() {
      const startState = state;
      const startDraws = draws;
      let own = 0;
      const view: Ids = {
        seeded: true,
        next: (prefix) => {
          const at = draws;
          const id = ids.next(prefix);
          own += draws - at;
          return id;
        },
        random: () => {
          own += 1;
          return ids.random();
        },
        scope: () => ({ ids: view, undo() {} }),
      };
      return {
        ids: view,
        undo() {
          if (draws !== startDraws + own) return; // someone else drew since: keep the sequence moving
          state = startState;
          draws = startDraws;
        },
      };
    },
  };
  return ids;
}

function cryptoIds(): Ids {
  // One system call per 256 IDs rather than one each: randomFillSync on a pool, handed out 16 bytes at a time.
  const pool = Buffer.alloc(4096);
  let at = pool.length;
  const take = (bytes: number) => {
    if (at + bytes > pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    const start = at;
    at += bytes;
    return start;
  };
  const ids: Ids = {
    seeded: false,
    next: (prefix) => {
      const start = take(16);
      // Joined, not concatenated: a concatenation of 13 characters or more is a pair of strings that is
      // flattened into a third when the ID is first hashed, and a stored ID keeps all of them (issue 14's
      // bench: add-blacklist-record stores an ID a request; a joined one is a single string).
      return [prefix, '_', pool.toString('hex', start, start + 16)].join('');
    },
    random: () => pool.readUInt32BE(take(4)) / 2 ** 32,
    // Nothing to give back (random IDs are no sequence): one scope for every request, none made per request.
    scope: () => unscoped,
  };
  const unscoped = { ids, undo() {} };
  return ids;
}

/** Seeded IDs when `seed` is a number, else IDs from `crypto`. */
export function createIds(seed?: number): Ids {
  return seed === undefined ? cryptoIds() : seededIds(seed);
}
