/** The sandbox's time. Tests pass a manual clock to move time (session expiry, rate-limit blocks). */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

export function manualClock(start: number = Date.parse('2026-01-01T00:00:00.000Z')): Clock & { advance(ms: number): void; set(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    set: (ms) => {
      now = ms;
    },
  };
}
