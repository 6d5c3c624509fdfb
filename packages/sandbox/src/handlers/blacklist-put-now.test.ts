// add-blacklist-record on a store that puts at once (memory's `putNow`: the answer made without a promise)
// answers as on a store that puts through a promise (every other store): the same answers, records, refusals
// and IDs, request by request.
import { describe, expect, it } from 'vitest';
import { demoCompanyKey } from '../companies.js';
import { createSandbox, type Sandbox } from '../server.js';

/** Two seeded sandboxes alike but for how their blacklist is put to. */
function pair(limits: Parameters<typeof createSandbox>[0] extends infer O ? (O extends { limits?: infer L } ? L : never) : never = {}) {
  const now = createSandbox({ seed: 7, limits });
  const later = createSandbox({ seed: 7, limits });
  expect(typeof now.state.blacklist.putNow).toBe('function');
  delete (later.state.blacklist as { putNow?: unknown }).putNow;
  return [now, later] as const;
}

const add = (sandbox: Sandbox, query: Record<string, unknown>) => sandbox.invoke('addBlacklistRecord', { companyKey: demoCompanyKey, query });
const listed = async (sandbox: Sandbox) => (await sandbox.invoke('listBlacklistRecords', { companyKey: demoCompanyKey, query: { limit: 1000 } })).json;

/** Sends the same requests to both, and expects the same answer to each and the same records at the end. */
async function same(sandboxes: readonly [Sandbox, Sandbox], queries: Record<string, unknown>[]) {
  const answers: unknown[] = [];
  for (const query of queries) {
    const [now, later] = await Promise.all(sandboxes.map((sandbox) => add(sandbox, query)));
    expect(now).toEqual(later);
    answers.push(now);
  }
  expect(await listed(sandboxes[0])).toEqual(await listed(sandboxes[1]));
  return answers;
}

describe('add-blacklist-record, put at once or through a promise', () => {
  it('stores and refuses alike: new records, the same person again, bad fields', async () => {
    const answers = await same(pair(), [
      { reason: 'Fraud', documentNumber: 'AB123' },
      { reason: 'Fraud', firstName: 'Jane', lastName: 'Roe' },
      { reason: 'Again', documentNumber: ' ab123 ' },
      { reason: 'Fraud', birthday: '1990-04-01T00:00:00Z' },
      { reason: 'Other', birthday: '1990-04-01T23:00:00Z' },
      { reason: 'Fraud', birthday: 'not a day' },
      { reason: ' ', documentNumber: 'X' },
      { reason: 'Fraud', firstName: 'Zo\u00eb' },
      { reason: 'Fraud', firstName: 'ZO\u00cb' },
    ]);
    expect(answers.map((answer) => (answer as { status: number }).status)).toEqual([200, 200, 400, 200, 400, 400, 400, 200, 400]);
    expect(answers[2]).toEqual({ status: 400, json: { argumentError: 'already-exists' } });
  });

  it('gives back a refused request its ID alike: the next record gets the ID the refused one drew', async () => {
    const [first, , next] = await same(pair(), [{ reason: 'Fraud', documentNumber: 'AB1' }, { reason: 'Fraud', documentNumber: 'AB1' }, { reason: 'Fraud', documentNumber: 'AB2' }]);
    const fresh = createSandbox({ seed: 7 });
    const drawn = [await add(fresh, { reason: 'r', documentNumber: '1' }), await add(fresh, { reason: 'r', documentNumber: '2' })];
    expect([first, next]).toEqual(drawn);
  });

  it('refuses alike when the company has no room: already-exists for a record stored, wrong-parameters for a new one', async () => {
    const answers = await same(pair({ maxRecordsPerCompany: 2 }), [
      { reason: 'Fraud', documentNumber: 'A' },
      { reason: 'Fraud', documentNumber: 'B' },
      { reason: 'Fraud', documentNumber: 'a' },
      { reason: 'Fraud', documentNumber: 'C' },
    ]);
    expect(answers.slice(2)).toEqual([
      { status: 400, json: { argumentError: 'already-exists' } },
      { status: 400, json: { argumentError: 'wrong-parameters' } },
    ]);
  });
});
