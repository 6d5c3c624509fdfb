// list-blacklist-records over HTTP asked for pages past the last record (handlers/blacklist.ts keeps each
// company's last page as bytes to write again): each answer shows the offset and limit asked and the
// total stored now, even when its page is as empty as the one before.
import { afterEach, expect, it } from 'vitest';
import { demoCompanyKey } from '../companies.js';
import { createSandbox, type Sandbox } from '../server.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start() {
  sandbox = createSandbox({ seed: 3, rateLimit: 1_000_000 });
  const origin = await sandbox.listen(0);
  return (path: string, body: unknown) =>
    fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
}

it('shows the offset asked for each empty page past the end', async () => {
  const post = await start();
  await post('/add-blacklist-record', { companyKey: demoCompanyKey, query: { reason: 'Fraud', documentNumber: 'PAST-1' } });
  for (const offset of [10, 20, 10]) {
    const page = await post('/list-blacklist-records', { companyKey: demoCompanyKey, query: { offset, limit: 5 } });
    expect(page).toEqual({ status: 200, body: { result: { offset, limit: 5, total: 1, data: [] } } });
  }
});

it('shows the total stored now when the same empty page is asked again after a record is added', async () => {
  const post = await start();
  await post('/add-blacklist-record', { companyKey: demoCompanyKey, query: { reason: 'Fraud', documentNumber: 'PAST-1' } });
  const query = { companyKey: demoCompanyKey, query: { offset: 10, limit: 5 } };
  expect((await post('/list-blacklist-records', query)).body.result.total).toBe(1);
  await post('/add-blacklist-record', { companyKey: demoCompanyKey, query: { reason: 'Fraud', documentNumber: 'PAST-2' } });
  expect(await post('/list-blacklist-records', query)).toEqual({ status: 200, body: { result: { offset: 10, limit: 5, total: 2, data: [] } } });
  await post('/remove-blacklist-record', { companyKey: demoCompanyKey, id: (await post('/list-blacklist-records', { companyKey: demoCompanyKey })).body.result.data[0].id });
  expect((await post('/list-blacklist-records', query)).body.result.total).toBe(1);
});
