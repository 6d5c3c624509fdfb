// Two sandboxes in one process given the same company objects (a test suite, an embedding server): each
// console operation answers from its own sandbox. The console finds a sandbox's request log, limiter and
// callback dispatcher through the company object, so sharing it once made one sandbox pause the other's
// callbacks and list the other's requests.
import { afterEach, expect, it } from 'vitest';
import { companiesFrom, demoSessionConfigs } from '../companies.js';
import { callbackKeyA, keyA, startTestSandbox } from '../sandbox.test-helper.js';

const opened: Awaited<ReturnType<typeof startTestSandbox>>[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

it('keeps each sandbox its own request log and callback delivery when both were given the same companies', async () => {
  const companies = companiesFrom({ companies: [{ name: 'Company A', companyKey: keyA, callbackApiKey: callbackKeyA, sessionConfigs: demoSessionConfigs }] });
  const first = await startTestSandbox({ companies });
  opened.push(first);
  const second = await startTestSandbox({ companies });
  opened.push(second);

  const { id } = await second.a.begin({ configId: 'cfg-kyc-standard-01' });
  expect((await second.control.listRequests({ operation: 'begin' })).result.map((r) => r.sessionId)).toEqual([id]);
  expect((await first.control.listRequests({ operation: 'begin' })).result).toEqual([]);

  await first.control.setCallbackDelivery({ paused: true });
  expect((await first.control.getCallbackDelivery({})).result).toEqual({ paused: true });
  expect((await second.control.getCallbackDelivery({})).result).toEqual({ paused: false });
});
