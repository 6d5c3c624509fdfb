// The API's answers are written together at the end of the event loop's turn that made them (server.ts
// `answerAtTurnEnd`): each request still gets its own answer, as it was when its handler made it, and an
// answer never waits for a request of a later turn.
import { afterEach, expect, it } from 'vitest';
import { demoCompanyKey } from './companies.js';
import { allHandlers } from './handlers/index.js';
import { createSandbox, type Sandbox } from './server.js';
import type { Handlers } from './context.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(handlers: Handlers = allHandlers) {
  sandbox = createSandbox({ handlers, rateLimit: 1_000_000 });
  return sandbox.listen(0);
}

const post = (origin: string, path: string, body: unknown) =>
  fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));

it('answers each of many requests sent at once with its own answer', async () => {
  const origin = await start();
  const adds = Array.from({ length: 60 }, (_, n) => post(origin, '/add-blacklist-record', { companyKey: demoCompanyKey, query: { reason: 'Burst', documentNumber: `BURST-${n}` } }));
  const again = Array.from({ length: 10 }, (_, n) => post(origin, '/add-blacklist-record', { companyKey: demoCompanyKey, query: { reason: 'Burst', documentNumber: `burst-${n}` } }));
  const answers = await Promise.all([...adds, ...again]);
  const ids = answers.slice(0, 60).map((answer) => answer.body.result);
  expect(new Set(ids).size).toBe(60);
  // The same person twice at once: one record, the other refused, whichever came first.
  const stored = await post(origin, '/list-blacklist-records', { companyKey: demoCompanyKey, query: { limit: 1000 } });
  expect(stored.body.result.total).toBe(60);
  const byNumber = new Map(stored.body.result.data.map((record: { id: string; documentNumber: string }) => [record.documentNumber, record.id]));
  for (const [n, id] of ids.entries()) expect(byNumber.get(`BURST-${n}`)).toBe(id);
  expect(answers.slice(60).every((answer) => answer.status === 400 && answer.body.argumentError === 'already-exists')).toBe(true);
});

it('answers what the handler answered when it answered, whatever changes before the answer is written', async () => {
  const shared = { result: { groups: ['as answered'] } };
  const origin = await start({
    ...allHandlers,
    listGroups: () => {
      // Runs in this turn's check phase, before the turn's answers are written.
      setImmediate(() => shared.result.groups.push('changed afterwards'));
      return { json: shared };
    },
  });
  const answer = await post(origin, '/list-groups', { companyKey: demoCompanyKey });
  expect(answer).toEqual({ status: 200, body: { result: { groups: ['as answered'] } } });
});

it('never holds an answer for a request that is still running', async () => {
  let release = () => {};
  const origin = await start({ ...allHandlers, listGroups: () => new Promise((resolve) => (release = () => resolve({ json: { result: [] } }))) });
  const order: string[] = [];
  const slow = post(origin, '/list-groups', { companyKey: demoCompanyKey }).then(() => order.push('slow'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  await post(origin, '/add-blacklist-record', { companyKey: demoCompanyKey, query: { reason: 'Quick', documentNumber: 'Q-1' } }).then(() => order.push('quick'));
  release();
  await slow;
  expect(order).toEqual(['quick', 'slow']);
});
