// W5: bounded memory. Lookups go through indexes (never a scan of a company's records), a company holds
// at most so many records, and 200,000 sessions keep the heap under a stated bound.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { keyA, keyB, startSandbox } from './hostile.test-helper.js';
import { defaultLimits } from './limits.js';
import type { Collection } from './store.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let t: Awaited<ReturnType<typeof startSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Makes `list` of a collection throw: whatever still works afterwards does not scan. */
function forbidScans(...collections: Collection<unknown>[]) {
  for (const collection of collections) {
    collection.list = () => {
      throw new Error('a scan of every record');
    };
  }
}

const ok = (answer: { status: number; json?: unknown }) => {
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json as any;
};

describe('lookups use indexes, not scans', () => {
  it('create-user finds a taken e-mail address, a finished session its blacklist match, a deletion the children and files', async () => {
    t = await startSandbox();
    const { state } = t.sandbox;
    ok(await t.sandbox.invoke('createUser', { companyKey: keyA, email: 'jane@example.org', password: 'a-long-password' }));
    ok(await t.sandbox.invoke('addBlacklistRecord', { companyKey: keyA, query: { reason: 'test', firstName: 'x', lastName: 'y' } }));
    const parent = ok(await t.sandbox.invoke('begin', { companyKey: keyA, configId: 'cfg-kyc-standard-01' }));
    const jpeg = 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==';
    forbidScans(state.users, state.blacklist, state.sessions, state.files, state.monitoring, state.groups);

    expect((await t.sandbox.invoke('createUser', { companyKey: keyA, email: 'JANE@example.org', password: 'a-long-password' })).json).toEqual({ argumentError: 'user-already-exists' });
    const user = ok(await t.sandbox.invoke('createUser', { companyKey: keyA, email: 'john@example.org', password: 'a-long-password' })).result;
    ok(await t.sandbox.invoke('makeGroup', { companyKey: keyA, name: 'G', memberIds: [user] }));
    ok(await t.sandbox.invoke('deleteUser', { companyKey: keyA, userId: user }));
    ok(await t.sandbox.invoke('uploadFile', { companyKey: keyA, sessionId: parent.id, stepKey: 'documents', questionKey: 'proof-of-address', content: jpeg }));
    ok(await t.sandbox.invoke('getQuestionFile', { companyKey: keyA, sessionId: parent.id, stepKey: 'documents', questionKey: 'proof-of-address' }));
    ok(await t.sandbox.invoke('sandboxCompleteSession', { companyKey: keyA, sessionId: parent.id, result: 'approved' }));
    ok(await t.sandbox.invoke('begin', { companyKey: keyA, sessionId: parent.id }));
    ok(await t.sandbox.invoke('monitorScreeningQuery', { companyKey: keyA, query: { fullName: 'Jane Sample' } }));
    expect((await t.sandbox.invoke('monitorScreeningQuery', { companyKey: keyA, query: { fullName: 'Jane Sample' } })).json).toEqual({ argumentError: 'already-exists' });
    ok(await t.sandbox.invoke('deleteSession', { companyKey: keyA, sessionId: parent.id }));
    expect(await state.sessions.count(keyA)).toBe(0);
    expect(await state.files.count(keyA)).toBe(0);
  });
});

describe('per-company caps', () => {
  it('a company at its record cap gets wrong-parameters and stores nothing; other companies are not affected', async () => {
    t = await startSandbox({ limits: { maxRecordsPerCompany: 3 } });
    for (let i = 0; i < 3; i++) ok(await t.sandbox.invoke('addBlacklistRecord', { companyKey: keyA, query: { reason: 'r', documentNumber: `D${i}` } }));
    expect((await t.sandbox.invoke('addBlacklistRecord', { companyKey: keyA, query: { reason: 'r', documentNumber: 'D9' } })).json).toEqual({ argumentError: 'wrong-parameters' });
    expect(await t.sandbox.state.blacklist.count(keyA)).toBe(3);
    ok(await t.sandbox.invoke('addBlacklistRecord', { companyKey: keyB, query: { reason: 'r', documentNumber: 'D9' } }));
    // Deleting makes room again.
    const [first] = await t.sandbox.state.blacklist.page(keyA, 0, 1);
    ok(await t.sandbox.invoke('removeBlacklistRecord', { companyKey: keyA, id: first!.id }));
    ok(await t.sandbox.invoke('addBlacklistRecord', { companyKey: keyA, query: { reason: 'r', documentNumber: 'D9' } }));
  });

  it('a company over its byte budget gets wrong-parameters', async () => {
    t = await startSandbox({ limits: { maxBytesPerCompany: 20_000 } });
    const name = 'n'.repeat(5_000);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await t.sandbox.invoke('begin', { companyKey: keyA, name })).status);
    expect(answers).toEqual([200, 200, 200, 400, 400]);
  });

  it('a session keeps its first and latest activities only', async () => {
    t = await startSandbox({ limits: { maxActivitiesPerSession: 5 } });
    const { id, url } = ok(await t.sandbox.invoke('begin', { companyKey: keyA }));
    for (let i = 0; i < 20; i++) await (await fetch(url)).text();
    const activities = ok(await t.sandbox.invoke('listSessionActivities', { companyKey: keyA, sessionId: id })).result;
    expect(activities).toHaveLength(5);
    expect(activities[0].type).toBe('SESSION_CREATED');
  });
});

describe('200,000 sessions', () => {
  it(`keep the heap growth under 100 MB: a company holds at most ${defaultLimits.maxRecordsPerCompany} sessions, the rest are refused`, async () => {
    t = await startSandbox();
    gc();
    const before = process.memoryUsage();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 200_000; i++) {
      const { status } = await t.sandbox.invoke('begin', { companyKey: keyA, configId: 'cfg-kyc-standard-01' });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    gc();
    const after = process.memoryUsage();
    const growthMb = (after.heapUsed - before.heapUsed) / 2 ** 20;
    console.log(`200,000 begins: ${JSON.stringify(Object.fromEntries(statuses))}; heap +${growthMb.toFixed(0)} MB, RSS ${(after.rss / 2 ** 20).toFixed(0)} MB`);
    expect(Object.fromEntries(statuses)).toEqual({ 200: defaultLimits.maxRecordsPerCompany, 400: 200_000 - defaultLimits.maxRecordsPerCompany });
    expect(growthMb).toBeLessThan(100);
  }, 60_000);
});
