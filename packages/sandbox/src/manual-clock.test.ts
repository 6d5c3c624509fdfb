// The sandbox's time (clock.ts): the system clock is the wall clock; the manual clock that tests pass starts
// at 2026-01-01 UTC (or where it is told), and moves only when moved: forward by `advance`, to a time by `set`.
import { expect, it } from 'vitest';
import { manualClock, systemClock } from './clock.js';

it('reads the wall clock', () => {
  const before = Date.now();
  const now = systemClock.now();
  expect(now).toBeGreaterThanOrEqual(before);
  expect(now).toBeLessThanOrEqual(Date.now());
});

it('starts a manual clock at 2026-01-01 UTC, or where asked, and moves it only when moved', () => {
  const clock = manualClock();
  expect(new Date(clock.now()).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  clock.advance(1_500);
  clock.advance(500);
  expect(clock.now()).toBe(Date.parse('2026-01-01T00:00:02.000Z'));
  clock.set(42);
  expect(clock.now()).toBe(42);
  expect(manualClock(1_000).now()).toBe(1_000);
});
