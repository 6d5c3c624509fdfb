// An instance of the durable outbox (outbox.ts) that closes while its claim of due events is on its way to
// PostgreSQL: the events it then gets are handed back as if never claimed (no attempt counted or logged,
// no lease held), so the next instance sends them at once, as attempt 1, instead of after the lease's
// timeout. The claim is held at a gate of the test's own, so the close comes between claim and POST. And an
// attempt that close() cuts is never the last one nor followed by a back-off: the next instance sends the
// event at once, whatever maxAttempts says.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { manualClock, systemClock } from '../clock.js';
import type { Company } from '../companies.js';
import type { Database } from './database.js';
import { createOutboxDispatcher } from './outbox.js';
import { jsonReceiver, outboxDatabase } from './outbox.test-helper.js';

let db: Database;
let receiver: Awaited<ReturnType<typeof jsonReceiver>>;
const received: number[] = [];
/** Requests to leave unanswered (the next ones are answered at once). */
let hang = 0;

beforeAll(async () => {
  db = await outboxDatabase();
  receiver = await jsonReceiver((body: { n: number }, res) => {
    received.push(body.n);
    if (hang > 0) hang--;
    else res.end();
  });
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await db?.close();
});

it('hands an event claimed as the instance closes to the next instance at once, its attempt not counted', async () => {
  const company: Company = { name: 'Close test', companyKey: 'ck_test_outbox_close_0000', callbackUrl: `${receiver.origin}/cb`, callbackApiKey: 'cbk_test_close_key', screeningPaid: false, trustedDatabase: false, registries: [], sessionConfigs: [] };
  // The first instance's claims wait at the gate until the test opens it.
  let claimed!: () => void;
  const claiming = new Promise<void>((resolve) => (claimed = resolve));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const gated: Database = {
    ...db,
    kind: db.kind,
    query: async (text, params) => {
      if (text.includes('with claimed as')) {
        const rows = await db.query(text, params);
        if (rows.length > 0) {
          claimed();
          await gate;
        }
        return rows as never;
      }
      return db.query(text, params);
    },
    transaction: (work) => db.transaction(work),
  };
  // A lease far longer than the test: only the hand-back lets another instance send the event now.
  const policy = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 600_000 };
  const clock = manualClock();
  const first = createOutboxDispatcher({ database: gated, clock, random: () => 0, nextId: () => 'evt_close_1', policy, pollMs: 3_600_000 });
  await first.enqueue(company, { type: 'session-change', sessionId: 's1', n: 0 });
  await claiming;
  // The claim is a lease for the attempt's timeout and a margin (5 s): another instance takes the event
  // only after an attempt of this one would have ended.
  expect(await db.query('select attempts, leased_until - due_at as lease from callback_outbox')).toEqual([{ attempts: 1, lease: policy.timeoutMs + 5_000 }]);
  const closing = first.close();
  open();
  await closing;
  expect(received).toEqual([]);
  expect(await db.query('select attempts, leased_by from callback_outbox')).toEqual([{ attempts: 0, leased_by: null }]);
  expect(await first.attempts(company.companyKey)).toEqual([]);

  const next = createOutboxDispatcher({ database: db, clock: systemClock, random: () => 0, nextId: () => 'evt_close_2', policy, pollMs: 3_600_000 });
  try {
    await next.idle();
    expect(received).toEqual([0]);
    expect((await next.attempts(company.companyKey)).map((a) => `${a.attempt}:${a.outcome}`)).toEqual(['1:delivered']);
  } finally {
    await next.close();
  }
});

it('hands an attempt cut by close() to the next instance at once, even when it was the last one allowed', async () => {
  received.length = 0;
  hang = 1;
  const company: Company = { name: 'Cut test', companyKey: 'ck_test_outbox_cut_0000', callbackUrl: `${receiver.origin}/cb`, callbackApiKey: 'cbk_test_cut_key', screeningPaid: false, trustedDatabase: false, registries: [], sessionConfigs: [] };
  // One attempt allowed, and a back-off of ten minutes after a failure: neither may hold a cut attempt.
  const policy = { maxAttempts: 1, baseDelayMs: 600_000, maxDelayMs: 600_000, timeoutMs: 600_000 };
  const first = createOutboxDispatcher({ database: db, clock: systemClock, random: () => 0.5, nextId: () => 'evt_cut_1', policy, pollMs: 3_600_000 });
  await first.enqueue(company, { type: 'session-change', sessionId: 's1', n: 7 });
  for (let tries = 0; received.length === 0; tries++) {
    if (tries > 1_000) throw new Error('the first attempt never came');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await first.close();
  const next = createOutboxDispatcher({ database: db, clock: systemClock, random: () => 0.5, nextId: () => 'evt_cut_2', policy, pollMs: 3_600_000 });
  try {
    await next.idle();
    expect(received).toEqual([7, 7]);
    expect((await next.attempts(company.companyKey)).map((a) => `${a.attempt}:${a.outcome}`)).toEqual(['1:failed', '2:delivered']);
  } finally {
    await next.close();
  }
});
