// The durable callback outbox, on PGlite and on a real PostgreSQL: events survive a restart of the
// dispatcher, an event written in a transaction exists exactly when the transaction commits, two
// dispatchers on one database deliver each event once per attempt and in order per session, a dead
// instance's lease runs out, and the memory dispatcher's rules hold (retries, giving up, log, limits).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type DeliveryPolicy, type OutboxDispatcher } from '../callbacks.js';
import { systemClock } from '../clock.js';
import type { Company } from '../companies.js';
import { defaultLimits, type Limits } from '../limits.js';
import type { Database } from './database.js';
import { twoHandleEngines } from './two-instances.test-helper.js';
import { outboxTables } from './outbox.js';

// A long timeout: PGlite runs in this thread, and under load an answer can take seconds to be read.
const policy: DeliveryPolicy = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 15_000 };
type Received = { session: string; n: number; key: unknown; status: number };

/** A callback receiver on 127.0.0.1 that answers what `answer` says and records every request. */
async function startReceiver(answer: (body: { sessionId: string; n: number }, seen: number) => number | 'hang' = () => 200) {
  const received: Received[] = [];
  const seen = new Map<string, number>();
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text) as { sessionId: string; n: number; callbackApiKey: unknown };
      const id = `${body.sessionId}/${body.n}`;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      const status = answer(body, seen.get(id)!);
      received.push({ session: body.sessionId, n: body.n, key: body.callbackApiKey, status: status === 'hang' ? 0 : status });
      if (status === 'hang') hanging.push(res);
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
  return {
    url,
    received,
    close: () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let companies = 0;
const companyFor = (callbackUrl: string): Company => ({
  name: 'Outbox test',
  companyKey: `ck_test_outbox_${process.pid}_${++companies}`,
  callbackUrl,
  callbackApiKey: 'cbk_test_outbox_key',
  screeningPaid: false,
  trustedDatabase: false,
  registries: [],
  sessionConfigs: [],
});

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};


describe.each(twoHandleEngines)('%s', (_kind, open) => {
  let first: Database;
  let second: Database;
  const cleanup: (() => Promise<void>)[] = [];
  let ids = 0;
  const dispatcher = (database: Database, options: { pollMs?: number; limits?: Limits; leaseMarginMs?: number } = {}): OutboxDispatcher => {
    const made = createDispatcher({
      clock: systemClock,
      random: Math.random,
      nextId: () => `evt_test_${++ids}`,
      policy,
      limits: options.limits ?? defaultLimits,
      outbox: { database, pollMs: options.pollMs ?? 20, leaseMarginMs: options.leaseMarginMs },
    });
    cleanup.push(() => made.close());
    return made;
  };
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const made = await startReceiver(...args);
    cleanup.push(made.close);
    return made;
  };
  const waiting = async () => ((await first.query<{ n: number }>('select count(*) as n from callback_outbox'))[0]!.n);

  beforeAll(async () => {
    [first, second] = await open();
    for (const statement of outboxTables) await first.query(statement);
  }, 60_000);
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
    await first.query('delete from callback_outbox; delete from callback_attempts; delete from callback_pauses');
  });
  afterAll(async () => {
    await first?.close();
    if (second !== first) await second?.close();
  });

  it('delivers with the callback key and logs the attempt without it', async () => {
    const target = await receiver();
    const company = companyFor(target.url);
    const outbox = dispatcher(first);
    const eventId = await outbox.enqueue(company, { type: 'session-change', sessionId: 's1', n: 0 });
    await outbox.idle();
    expect(target.received).toEqual([{ session: 's1', n: 0, key: 'cbk_test_outbox_key', status: 200 }]);
    expect(await outbox.attempts(company.companyKey)).toEqual([
      { eventId, attempt: 1, type: 'session-change', sessionId: 's1', url: target.url, sentAt: expect.any(String), outcome: 'delivered', status: 200, payload: { callbackApiKey: '[redacted]', type: 'session-change', sessionId: 's1', n: 0 } },
    ]);
    expect(JSON.stringify(await outbox.attempts(company.companyKey))).not.toContain('cbk_test_outbox_key');
    expect(await waiting()).toBe(0);
  });

  it('retries a failed event and holds the session’s next events behind it', async () => {
    const target = await receiver((_body, seen) => (seen < 3 ? 503 : 200));
    const company = companyFor(target.url);
    const outbox = dispatcher(first);
    for (let n = 0; n < 3; n++) await outbox.enqueue(company, { type: 'session-change', sessionId: 's1', n });
    await outbox.idle();
    expect(target.received.map((r) => `${r.n}:${r.status}`)).toEqual(['0:503', '0:503', '0:200', '1:503', '1:503', '1:200', '2:503', '2:503', '2:200']);
    expect((await outbox.attempts(company.companyKey)).map((a) => `${a.attempt}:${a.outcome}`)).toEqual(['1:failed', '2:failed', '3:delivered', '1:failed', '2:failed', '3:delivered', '1:failed', '2:failed', '3:delivered']);
  });

  it('gives an event up after maxAttempts and goes on with the next', async () => {
    const target = await receiver((body) => (body.n === 0 ? 500 : 200));
    const company = companyFor(target.url);
    const outbox = dispatcher(first);
    await outbox.enqueue(company, { type: 'session-change', sessionId: 's1', n: 0 });
    await outbox.enqueue(company, { type: 'session-change', sessionId: 's1', n: 1 });
    await outbox.idle();
    expect(target.received.map((r) => `${r.n}:${r.status}`)).toEqual(['0:500', '0:500', '0:500', '1:200']);
    expect(await waiting()).toBe(0);
  });

  it('keeps events over a restart: enqueued in a transaction, the dispatcher closed, a new one delivers', async () => {
    const target = await receiver();
    const company = companyFor(target.url);
    const before = dispatcher(first);
    // Held, so that what delivers them is the dispatcher after the restart.
    await before.setPaused(company.companyKey, true);
    await first.transaction(async (tx) => {
      for (let n = 0; n < 5; n++) await before.enqueue(company, { type: 'session-change', sessionId: 's1', n }, tx);
    });
    await before.close();
    expect(target.received).toEqual([]);
    expect(await waiting()).toBe(5);
    const after = dispatcher(second);
    await after.setPaused(company.companyKey, false);
    await after.idle();
    expect(target.received.map((r) => r.n)).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps no event of a transaction that rolls back', async () => {
    const target = await receiver();
    const company = companyFor(target.url);
    const outbox = dispatcher(first);
    await expect(
      first.transaction(async (tx) => {
        await outbox.enqueue(company, { type: 'session-change', sessionId: 's1', n: 0 }, tx);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await outbox.enqueue(company, { type: 'session-change', sessionId: 's1', n: 1 });
    await outbox.idle();
    expect(target.received.map((r) => r.n)).toEqual([1]);
  });

  it('hands an attempt cut by close() to the next dispatcher at once', async () => {
    const target = await receiver((_body, seen) => (seen === 1 ? 'hang' : 200));
    const company = companyFor(target.url);
    const before = dispatcher(first);
    await before.enqueue(company, { type: 'session-change', sessionId: 's1', n: 0 });
    await until(() => target.received.length === 1);
    await before.close();
    const started = Date.now();
    const after = dispatcher(second);
    await after.idle();
    expect(Date.now() - started).toBeLessThan(policy.timeoutMs); // not after the lease would have run out
    expect(target.received.map((r) => r.n)).toEqual([0, 0]);
    expect((await after.attempts(company.companyKey)).map((a) => `${a.attempt}:${a.outcome}`)).toEqual(['1:failed', '2:delivered']);
  });

  it('tries again after a dead instance’s lease runs out, not before', async () => {
    const target = await receiver();
    const company = companyFor(target.url);
    const writer = dispatcher(first);
    await writer.setPaused(company.companyKey, true);
    await writer.enqueue(company, { type: 'session-change', sessionId: 's1', n: 0 });
    await writer.close();
    // An instance that claimed the event and died (kill -9): its lease holds it for 400 ms more.
    const leasedAt = Date.now();
    await first.query("update callback_outbox set leased_by = 'dead', leased_until = $1, attempts = 1", [leasedAt + 400]);
    await first.query('delete from callback_pauses', []);
    const outbox = dispatcher(second);
    await until(() => target.received.length === 1);
    expect(Date.now() - leasedAt).toBeGreaterThanOrEqual(400);
    await outbox.idle();
    expect(target.received).toHaveLength(1);
  });

  it('with two dispatchers on one database, delivers each event once per attempt and in order per session', async () => {
    // Every event's first attempt fails, its second is delivered: each arrives exactly twice, in order.
    const target = await receiver((_body, seen) => (seen === 1 ? 500 : 200));
    const company = companyFor(target.url);
    const a = dispatcher(first);
    const b = dispatcher(second);
    const sessions = 10;
    const perSession = 8;
    // The sessions at once, each one's events in order (n) as one session's writes are, through both.
    await Promise.all(
      Array.from({ length: sessions }, async (_, s) => {
        for (let n = 0; n < perSession; n++) await ((s + n) % 2 ? a : b).enqueue(company, { type: 'session-change', sessionId: `s${s}`, n });
      }),
    );
    await Promise.all([a.idle(), b.idle()]);
    for (let s = 0; s < sessions; s++) {
      const mine = target.received.filter((r) => r.session === `s${s}`).map((r) => `${r.n}:${r.status}`);
      expect(mine).toEqual(Array.from({ length: perSession }, (_, n) => [`${n}:500`, `${n}:200`]).flat());
    }
    expect(target.received).toHaveLength(sessions * perSession * 2);
    const byInstance = await first.query<{ n: number }>('select count(*) as n from callback_attempts');
    expect(byInstance[0]!.n).toBe(sessions * perSession * 2);
  });

  it('holds a paused company’s events on every instance until it is released', async () => {
    const target = await receiver();
    const company = companyFor(target.url);
    const a = dispatcher(first);
    const b = dispatcher(second);
    await a.setPaused(company.companyKey, true);
    expect(await b.isPaused(company.companyKey)).toBe(true);
    await a.enqueue(company, { type: 'session-change', sessionId: 's1', n: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(target.received).toEqual([]);
    await b.setPaused(company.companyKey, false);
    await a.idle();
    expect(target.received.map((r) => r.n)).toEqual([0]);
  });

  it('gives up at once on events over maxQueuedCallbacks, and clear drops one company’s queue and log', async () => {
    const target = await receiver();
    const company = companyFor(target.url);
    const other = companyFor(target.url);
    const outbox = dispatcher(first, { limits: { ...defaultLimits, maxQueuedCallbacks: 2 } });
    await outbox.setPaused(company.companyKey, true);
    await outbox.setPaused(other.companyKey, true);
    for (let n = 0; n < 3; n++) await outbox.enqueue(company, { type: 'session-change', sessionId: 's1', n });
    await outbox.enqueue(other, { type: 'session-change', sessionId: 's1', n: 0 });
    expect((await outbox.attempts(company.companyKey)).map((a) => `${a.attempt}:${a.outcome}:${a.status}`)).toEqual(['1:failed:null']);
    await outbox.clear(company.companyKey);
    expect(await outbox.attempts(company.companyKey)).toEqual([]);
    expect(await outbox.isPaused(company.companyKey)).toBe(false);
    expect(await waiting()).toBe(1); // the other company's
    await outbox.setPaused(other.companyKey, false);
    await outbox.idle();
    expect(target.received).toHaveLength(1);
  });

  it('keeps the latest maxCallbackLogEntries attempts of a company', async () => {
    const target = await receiver();
    const company = companyFor(target.url);
    const outbox = dispatcher(first, { limits: { ...defaultLimits, maxCallbackLogEntries: 3 } });
    for (let n = 0; n < 5; n++) await outbox.enqueue(company, { type: 'session-change', sessionId: 's1', n });
    await outbox.idle();
    expect((await outbox.attempts(company.companyKey)).map((a) => a.payload.n)).toEqual([2, 3, 4]);
    expect((await first.query<{ n: number }>('select count(*) as n from callback_attempts'))[0]!.n).toBe(3);
  });

  it('drops an event whose callback URL is unusable, without an attempt', async () => {
    const company = companyFor('not a url');
    const outbox = dispatcher(first);
    await outbox.enqueue(company, { type: 'session-change', sessionId: 's1' });
    await outbox.idle();
    expect(await waiting()).toBe(0);
    expect(await outbox.attempts(company.companyKey)).toEqual([]);
  });

  it('sends nothing for a company without a callback URL', async () => {
    const outbox = dispatcher(first);
    expect(await outbox.enqueue({ ...companyFor('x'), callbackUrl: undefined }, { type: 'session-change', sessionId: 's1' })).toBeUndefined();
    expect(await waiting()).toBe(0);
  });
});
