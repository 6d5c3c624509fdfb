// When the durable outbox (outbox.ts) sends, on PostgreSQL, with a poll far longer than any test: an event
// enqueued outside a transaction goes out at once, and so do a released company's events and a retry
// whose back-off has passed, on a clock that does not move (a test's manual clock, or a sandbox whose
// instances' clocks disagree); only an event written in a caller's transaction waits for the caller's
// wake(). The status of the answer decides (2xx delivered, anything else retried), and `idle()` of a
// closed instance returns once another instance has emptied the queue. Also: a session's next event goes
// out when the one before is delivered, a new instance sends what waits at once, and idle() looks for due
// events itself. outbox.test.ts covers the rest.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { DeliveryPolicy } from '../callback-delivery.js';
import { manualClock, systemClock, type Clock } from '../clock.js';
import type { Company } from '../companies.js';
import { defaultLimits } from '../limits.js';
import type { Database } from './database.js';
import { createOutboxDispatcher, type OutboxDispatcher } from './outbox.js';
import { jsonReceiver, outboxDatabase } from './outbox.test-helper.js';

const policy: DeliveryPolicy = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 15_000 };
/** Longer than any test: what is sent, is sent because something woke the outbox. */
const noPoll = 3_600_000;

let db: Database;
let receiver: Awaited<ReturnType<typeof jsonReceiver>>;
let url: string;
/** What the receiver answers each request, in turn (then 200); what it got. */
let answers: number[];
let received: { n: number; status: number }[];
/** The callbackApiKey of each request, in order. */
let keys: unknown[];
const cleanup: (() => Promise<void>)[] = [];
let companies = 0;
let ids = 0;

beforeAll(async () => {
  db = await outboxDatabase();
  receiver = await jsonReceiver((body: { n: number; callbackApiKey: unknown }, res) => {
    const status = answers.shift() ?? 200;
    received.push({ n: body.n, status });
    keys.push(body.callbackApiKey);
    res.writeHead(status).end();
  });
  url = `${receiver.origin}/callbacks`;
}, 60_000);
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  await db.query('delete from callback_outbox; delete from callback_attempts; delete from callback_pauses');
});
afterAll(async () => {
  await receiver?.close();
  await db?.close();
});

function outbox(clock: Clock = systemClock, pollMs = noPoll): OutboxDispatcher {
  answers = [];
  received = [];
  keys = [];
  const made = createOutboxDispatcher({ database: db, clock, random: () => 1, nextId: () => `evt_wake_${++ids}`, policy, limits: defaultLimits, pollMs });
  cleanup.push(() => made.close());
  return made;
}
const company = (): Company => ({ name: 'Wake test', companyKey: `ck_test_wake_${process.pid}_${++companies}`, callbackUrl: url, callbackApiKey: 'cbk_test_wake_key', screeningPaid: false, trustedDatabase: false, registries: [], sessionConfigs: [] });
const event = (n: number) => ({ type: 'session-change', sessionId: 's1', n });
const until = async (check: () => boolean) => {
  for (let tries = 0; !check(); tries++) {
    if (tries > 1_000) throw new Error(`still waiting; received ${JSON.stringify(received)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
const waiting = async () => (await db.query<{ n: number }>('select count(*) as n from callback_outbox'))[0]!.n;

it('sends an event enqueued outside a transaction at once, without a poll', async () => {
  const o = outbox();
  const c = company();
  await o.enqueue(c, event(0));
  await until(() => received.length === 1);
  await o.enqueue(c, event(1));
  await until(() => received.length === 2);
  expect(received).toEqual([{ n: 0, status: 200 }, { n: 1, status: 200 }]);
});

it("sends an event of a caller's transaction when the caller wakes the outbox after the commit", async () => {
  const o = outbox();
  const c = company();
  await db.transaction(async (tx) => {
    await o.enqueue(c, event(0), tx);
  });
  expect(await waiting()).toBe(1);
  o.wake();
  await until(() => received.length === 1);
  expect(received).toEqual([{ n: 0, status: 200 }]);
});

it("sends a released company's events at once", async () => {
  const o = outbox();
  const c = company();
  await o.setPaused(c.companyKey, true);
  await o.enqueue(c, event(0));
  expect(await o.isPaused(c.companyKey)).toBe(true);
  await o.setPaused(c.companyKey, false);
  expect(await o.isPaused(c.companyKey)).toBe(false);
  await until(() => received.length === 1);
});

it('retries after the back-off though the clock does not move', async () => {
  const o = outbox(manualClock());
  const c = company();
  answers = [503, 500];
  await o.enqueue(c, event(0));
  await until(() => received.length === 3);
  expect(received.map((r) => r.status)).toEqual([503, 500, 200]);
  await until(() => o.inFlight() === 0);
  expect((await o.attempts(c.companyKey)).map((a) => `${a.attempt}:${a.outcome}:${a.status}`)).toEqual(['1:failed:503', '2:failed:500', '3:delivered:200']);
});

it("writes a failed event's next due time, after its back-off, for every instance to see", async () => {
  const clock = manualClock();
  const made = createOutboxDispatcher({ database: db, clock, random: () => 0.5, nextId: () => `evt_wake_${++ids}`, policy: { ...policy, baseDelayMs: 600_000, maxDelayMs: 600_000 }, pollMs: noPoll });
  cleanup.push(() => made.close());
  answers = [500];
  received = [];
  keys = [];
  const c = company();
  await made.enqueue(c, event(0));
  await until(() => received.length === 1);
  await until(() => made.inFlight() === 0);
  for (let tries = 0; (await made.attempts(c.companyKey))[0]?.outcome !== 'failed'; tries++) if (tries > 1_000) throw new Error('never settled');
  // Half of the ten-minute cap (random() is 0.5), from the instance's clock, with no lease held.
  expect(await db.query('select due_at, leased_by from callback_outbox')).toEqual([{ due_at: clock.now() + 300_000, leased_by: null }]);
});

it('counts a 2xx answer as delivered and a 300 as failed', async () => {
  const o = outbox();
  const c = company();
  answers = [299, 300, 204];
  await o.enqueue(c, event(0));
  await o.enqueue(c, event(1));
  await o.idle();
  expect(received.map((r) => `${r.n}:${r.status}`)).toEqual(['0:299', '1:300', '1:204']);
  expect((await o.attempts(c.companyKey)).map((a) => `${a.attempt}:${a.outcome}`)).toEqual(['1:delivered', '1:failed', '2:delivered']);
});

it('forgets every company’s queue, log and pause on clear() without a company', async () => {
  const o = outbox();
  const [c, d] = [company(), company()];
  await o.setPaused(c.companyKey, true);
  await o.setPaused(d.companyKey, true);
  await o.enqueue(c, event(0));
  await o.enqueue(d, event(0));
  await db.query(`insert into callback_attempts (company, event_id, attempt, type, session_id, url, sent_at, outcome, payload) values ($1, 'evt_old', 1, 'session-change', 's0', $2, '2026-01-01T00:00:00.000Z', 'failed', '{}')`, [d.companyKey, url]);
  await o.clear();
  expect([await waiting(), await o.attempts(d.companyKey), await o.isPaused(c.companyKey), await o.isPaused(d.companyKey)]).toEqual([0, [], false, false]);
});

it("sends a session's next event as soon as the one before it is delivered", async () => {
  const o = outbox();
  const c = company();
  await o.setPaused(c.companyKey, true);
  for (let n = 0; n < 3; n++) await o.enqueue(c, event(n));
  await o.setPaused(c.companyKey, false);
  await until(() => received.length === 3);
  expect(received.map((r) => r.n)).toEqual([0, 1, 2]);
});

it('sends at start what waits in the database, and idle() looks for due events itself', async () => {
  const c = company();
  const before = outbox();
  await before.setPaused(c.companyKey, true);
  await before.enqueue(c, event(0));
  await before.close();
  // Released behind every instance's back: only a look of an instance's own finds it.
  await db.query('delete from callback_pauses');
  const started = outbox();
  await until(() => received.length === 1);
  // Written in a transaction, which wakes nothing: idle() has to look.
  await db.transaction(async (tx) => {
    await started.enqueue(c, event(1), tx);
  });
  await started.idle();
  expect(received.map((r) => r.n)).toEqual([0, 1]);
});

it('sends an empty callback key for a company that has none', async () => {
  const o = outbox();
  await o.enqueue({ ...company(), callbackApiKey: undefined }, event(0));
  await o.idle();
  expect(keys).toEqual(['']);
});

it('lets idle() of a closed instance return once another instance has emptied the queue', async () => {
  const closed = outbox();
  const c = company();
  await closed.setPaused(c.companyKey, true);
  await closed.enqueue(c, event(0));
  // Waiting before the close too: the close lets it go on looking, as a closed instance does.
  const idle = closed.idle();
  await closed.close();
  const other = createOutboxDispatcher({ database: db, clock: systemClock, random: () => 1, nextId: () => `evt_wake_${++ids}`, policy, pollMs: noPoll });
  cleanup.push(() => other.close());
  await other.setPaused(c.companyKey, false);
  await idle;
  expect(received).toEqual([{ n: 0, status: 200 }]);
});
