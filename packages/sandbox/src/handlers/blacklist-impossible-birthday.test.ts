// add-blacklist-record with a birthday no calendar day can be read from: a day that does not exist (the
// schema's date-time format refuses it) or a leap second, which the format lets through but no JavaScript
// date holds (handlers/blacklist.ts: the record's day must be read, or the duplicate rule could not compare
// it): wrong-parameters, nothing stored, the drawn ID given back.
import { expect, it } from 'vitest';
import { demoCompanyKey } from '../companies.js';
import { createSandbox } from '../server.js';

it('refuses a birthday on a day that does not exist or in a leap second, and stores nothing', async () => {
  const sandbox = createSandbox({ seed: 5 });
  const add = (query: Record<string, unknown>) => sandbox.invoke('addBlacklistRecord', { companyKey: demoCompanyKey, query });
  for (const birthday of ['1990-02-30T00:00:00Z', '1991-02-29T12:00:00Z', '1990-04-31T00:00:00Z', '1990-12-31T23:59:60Z', '1990-12-31T23:59:60+01:00']) {
    expect(await add({ reason: 'Fraud', birthday })).toEqual({ status: 400, json: { argumentError: 'wrong-parameters' } });
  }
  const listed = await sandbox.invoke('listBlacklistRecords', { companyKey: demoCompanyKey });
  expect((listed.json as { result: { total: number } }).result.total).toBe(0);
  // A day that exists is stored, with the first ID of the seeded sequence (the refused ones gave theirs back).
  const stored = await add({ reason: 'Fraud', birthday: '1992-02-29T12:00:00Z' });
  const fresh = createSandbox({ seed: 5 });
  expect(stored).toEqual(await fresh.invoke('addBlacklistRecord', { companyKey: demoCompanyKey, query: { reason: 'Other', documentNumber: 'X' } }));
  await Promise.all([sandbox.close(), fresh.close()]);
});
