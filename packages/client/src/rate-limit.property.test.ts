// The throttle's promise, checked on random call patterns on a virtual clock: bursts, gaps and callers
// that give up. Whatever the pattern, no 60 s window holds more than `perMinute` sends, every call that
// was not aborted gets through, and calls get through in the order they were made.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createThrottle, memoryStore, type ThrottleStore } from './rate-limit.js';
import { virtualClock } from './virtual-clock.test-helper.js';

const minute = 60_000;

const step = fc.record({
  gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1_000, max: 90_000 })),
  burst: fc.integer({ min: 1, max: 12 }),
  // Some calls give up after a while (maybe before, maybe after they got through).
  abortAfterMs: fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined, freq: 3 }),
});

type Call = { index: number; sentAt?: number; aborted: boolean; rejected: boolean };

type Step = { gapMs: number; burst: number; abortAfterMs: number | undefined };

type StoreKind = 'in-process log' | 'shared store';

async function play(perMinute: number, steps: Step[], kind: StoreKind) {
  const clock = virtualClock(1_700_000_000_000);
  // A shared store answers later (as Redis does), which takes the throttle's other path: the queue's head asks.
  const log = memoryStore(clock);
  const store: ThrottleStore | undefined = kind === 'shared store' ? { take: async (limit, windowMs) => (await null, log.take(limit, windowMs)) } : undefined;
  // No margin: the property holds for the bare window, so no slack can hide a fault.
  const throttle = createThrottle(perMinute, { clock, marginMs: 0, store });
  const calls: Call[] = [];
  const order: number[] = [];
  for (const { gapMs, burst, abortAfterMs } of steps) {
    await clock.advance(gapMs);
    for (let i = 0; i < burst; i++) {
      const call: Call = { index: calls.length, aborted: false, rejected: false };
      calls.push(call);
      const controller = new AbortController();
      if (abortAfterMs !== undefined && i % 2 === 0) {
        void clock.sleep(abortAfterMs).then(() => {
          if (call.sentAt === undefined) call.aborted = true;
          controller.abort();
        });
      }
      void throttle.acquire(controller.signal).then(
        () => {
          call.sentAt = clock.now();
          order.push(call.index);
        },
        () => {
          call.rejected = true;
        },
      );
    }
  }
  // Not awaiting the calls themselves: a call the throttle forgot must fail the property, not hang it.
  await clock.runAll();
  return { calls, order };
}

describe.each<StoreKind>(['in-process log', 'shared store'])('the throttle with its %s, on random call patterns', (kind) => {
  it('never sends more than perMinute in any 60 s window, and lets every call that was not aborted through, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), fc.array(step, { minLength: 1, maxLength: 12 }), async (perMinute, steps) => {
        const { calls, order } = await play(perMinute, steps, kind);
        const sends = calls.flatMap((call) => (call.sentAt === undefined ? [] : [call.sentAt])).sort((a, b) => a - b);
        // Any window [t, t + 60 s) holding perMinute + 1 sends would contain sends i and i + perMinute.
        for (let i = 0; i + perMinute < sends.length; i++) expect(sends[i + perMinute]! - sends[i]!).toBeGreaterThanOrEqual(minute);
        for (const call of calls) {
          if (!call.aborted) expect(call.sentAt, `call ${call.index} was never sent`).toBeDefined();
          else expect(call.rejected).toBe(true);
        }
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
    // Each run lets real setImmediate turns pass; on a loaded machine 200 runs take longer than 5 s.
  }, 60_000);
});
