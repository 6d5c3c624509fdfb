// A sandbox on a database (PGlite in memory here): its callback outbox answers before any request has
// migrated the schema (a tester may pause or list first), an operation's callbacks and the applicant
// page's are written to the outbox and delivered, a reset drops the events still waiting, and another
// sandbox on the same database has the records and the events that wait.
import { afterEach, describe, expect, it } from 'vitest';
import { callbackLog, demoCompanyA, receiveBodies, until } from './callback-receiver.test-helper.js';
import { companiesFrom } from './companies.js';
import { createSandbox } from './server.js';
import { adminToken, keyA, startTestSandbox } from './sandbox.test-helper.js';
import type { Database } from './sql/database.js';
import { openPglite } from './sql/pglite.js';

const cleanUps: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

const formTokenOf = (page: string) => /name="form_token" value="([^"]+)"/.exec(page)![1]!;

// One database for the whole story: opening and migrating PGlite takes seconds.
describe('a sandbox on PGlite', () => {
  it('pauses and lists callbacks before any request, drops waiting events on an admin reset, and delivers an operation\'s and the applicant page\'s', async () => {
    const receiver = await receiveBodies<{ type: string; sessionId: string }>();
    cleanUps.push(receiver.close);
    const received = receiver.received;
    const database: Database = await openPglite();
    cleanUps.push(() => database.close());
    const t = await startTestSandbox({ database, config: { companies: [demoCompanyA(receiver.url)] } });
    let closed = false;
    cleanUps.push(() => closed || t.close());

    await t.sandbox.dispatcher.setPaused(keyA, true);
    expect(await t.sandbox.dispatcher.isPaused(keyA)).toBe(true);
    expect(await t.sandbox.dispatcher.attempts(keyA)).toEqual([]);
    const { id: dropped } = await t.a.begin({});
    await t.control.completeSession({ sessionId: dropped, result: 'approved' });
    await t.control.reset({ adminToken });
    await t.sandbox.dispatcher.setPaused(keyA, false);
    expect(await t.sandbox.dispatcher.isPaused(keyA)).toBe(false);
    await t.sandbox.dispatcher.idle();
    expect(received).toEqual([]);

    const { id } = await t.a.begin({});
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    const { id: other, url } = await t.a.begin({});
    const token = formTokenOf(await (await fetch(url)).text());
    const done = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'rejected', form_token: token }) });
    expect(done.status).toBe(200);
    await t.sandbox.dispatcher.idle();
    expect(received.map((body) => [body.type, body.sessionId])).toEqual([
      ['session-change', id],
      ['session-change', other],
    ]);
    await until(async () => (await callbackLog(t)).filter((entry) => entry.outcome === 'delivered').length === 2, 'both attempts logged');
    await t.control.reset({}); // control is company A's client
    expect(await callbackLog(t)).toEqual([]);

    // The records and a waiting event are in the database: another sandbox on it has them.
    await t.sandbox.dispatcher.setPaused(keyA, true);
    const { id: waiting } = await t.a.begin({});
    await t.control.completeSession({ sessionId: waiting, result: 'approved' });
    closed = true;
    await t.close();
    const next = createSandbox({ database, companies: companiesFrom({ companies: [demoCompanyA(receiver.url)] }) });
    cleanUps.push(() => next.close());
    expect((await next.invoke('getResult', { companyKey: keyA, sessionId: waiting })).status).toBe(200);
    await next.dispatcher.setPaused(keyA, false);
    await next.dispatcher.idle();
    expect(received.map((body) => body.sessionId)).toEqual([id, other, waiting]);
  }, 120_000); // PGlite's start and migrations take seconds, more under load
});
