// The throttle against the sandbox's own rate limit, over loopback: the sandbox runs in this process on a
// virtual clock that the client's throttle shares, so a minute passes when the test says so.
import { createClient } from '@idv-toolkit/client';
import { createSandbox, demoCompanyKey, type Sandbox } from '@idv-toolkit/sandbox';
import { afterEach, describe, expect, it, vi } from 'vitest';
// The client's test clock (not shipped): real timers on a time that moves only when told.
import { settle, virtualClock } from '../../client/src/virtual-clock.test-helper.js';

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

async function start(rateLimit: number) {
  const clock = virtualClock(Date.parse('2026-01-01T00:00:00.000Z'));
  sandbox = createSandbox({ clock, rateLimit });
  const statuses: number[] = [];
  sandbox.server.on('request', (_req, res) => res.on('finish', () => statuses.push(res.statusCode)));
  const baseUrl = await sandbox.listen(0, '127.0.0.1');
  return { clock, baseUrl, statuses };
}

/** Lets real I/O happen (requests in flight reach the sandbox) without moving the virtual clock. */
const ioPause = async () => {
  for (let i = 0; i < 20; i++) await settle();
  await new Promise((resolve) => setTimeout(resolve, 100));
};

describe('the throttle against the sandbox with --rate-limit 10', () => {
  it('sends 10 calls of 12 at once, holds the 11th for the rest of the minute, and never gets a 529', async () => {
    const { clock, baseUrl, statuses } = await start(10);
    const idv = createClient({ companyKey: demoCompanyKey, baseUrl, clock, retry: false, rateLimit: { perMinute: 10 } });
    const sentAt: number[] = [];
    const calls = Array.from({ length: 12 }, () => idv.listGroups().then(() => void sentAt.push(clock.now())));
    const start0 = clock.now();
    // Ten real round trips to the sandbox: vitest's default wait of 1 s ran out once at load 13.
    await vi.waitFor(() => expect(statuses).toHaveLength(10), { timeout: 15_000 });
    await ioPause();
    expect(statuses).toEqual(Array(10).fill(200));

    await clock.advance(60_999);
    await ioPause();
    expect(statuses).toHaveLength(10);

    await clock.advance(1);
    await Promise.all(calls);
    expect(statuses).toEqual(Array(12).fill(200));
    // A minute and the throttle's second of margin (for latency) after the first ten.
    expect(sentAt.slice(10)).toEqual([start0 + 61_000, start0 + 61_000]);
  });

  it('answers the 11th call of a minute with 529 when the client does not throttle (what the throttle prevents)', async () => {
    const { baseUrl, statuses } = await start(10);
    const idv = createClient({ companyKey: demoCompanyKey, baseUrl, retry: false, rateLimit: false, throwOnError: false });
    await Promise.all(Array.from({ length: 11 }, () => idv.listGroups()));
    expect(statuses.filter((status) => status === 529)).toHaveLength(1);
  });
});
