// Run by callback-bounds.test.ts under `ulimit -n 1024`: a sandbox (the built package) whose company's
// receiver never answers, 1,100 callbacks pending, and 50 requests of another client that must all get
// their answer. Prints one JSON line.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { companiesFrom, createSandbox } from '@idv-toolkit/sandbox';

const receiver = createServer(() => undefined);
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const key = 'ck_test_callback_bounds_0000';
const sandbox = createSandbox({
  companies: companiesFrom({ companies: [{ companyKey: key, callbackUrl: `http://127.0.0.1:${receiver.address().port}/`, callbackApiKey: 'cb_test_bounds_0000' }] }),
  deliveryPolicy: { maxAttempts: 10, baseDelayMs: 1_000, maxDelayMs: 120_000, timeoutMs: 60_000 },
});
const url = await sandbox.listen(0, '127.0.0.1');
for (let i = 0; i < 1_100; i++) {
  const { json } = await sandbox.invoke('begin', { companyKey: key });
  await sandbox.invoke('sandboxCompleteSession', { companyKey: key, sessionId: json.id, result: 'approved' });
}
await new Promise((resolve) => setTimeout(resolve, 300));
let served = 0;
let failed = 0;
await Promise.all(
  Array.from({ length: 50 }, async () => {
    try {
      const response = await fetch(`${url}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: key }) });
      if (response.status === 200) served++;
      else failed++;
    } catch {
      failed++;
    }
  }),
);
const descriptorLimit = Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]);
console.log(JSON.stringify({ descriptorLimit, pending: 1100, served, failed, inFlight: sandbox.dispatcher.inFlight() }));
await sandbox.close();
receiver.closeAllConnections();
receiver.close();
