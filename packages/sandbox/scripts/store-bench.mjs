// In-process: add-blacklist-record and list-blacklist-records per request on memory, PGlite read and
// written directly, and PGlite through the memory mirror (sql/mirror.ts), 10 requests in flight at once.
// Run after a build: node packages/sandbox/scripts/store-bench.mjs [seconds per case]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, demoCompanyKey } from '../dist/index.js';
import { openPglite } from '../dist/sql/pglite.js';

const seconds = Number(process.argv[2] ?? 3);
const inFlight = 10;
// Room for every record a case adds (the default cap would refuse them).
const limits = { maxRecordsPerCompany: 1e7, maxBytesPerCompany: 1e10 };

async function measure(sandbox, operationId, fields) {
  let done = 0;
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const { status } = await sandbox.invoke(operationId, fields(done));
      if (status === 200) done++;
      else failed++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = performance.now() - start;
  return { perSecond: Math.round((done / elapsed) * 1000), msPerRequest: +(elapsed / done).toFixed(3), failed };
}

let unique = 0;
const add = () => ({ companyKey: demoCompanyKey, query: { reason: 'bench', documentNumber: `D${process.pid}-${unique++}` } });
const list = () => ({ companyKey: demoCompanyKey });

const dirs = [];
const cases = [
  ['memory', async () => ({ sandbox: createSandbox({ rateLimit: 1e9, limits }), close: async () => {} })],
  ...[false, true].map((mirror) => [
    mirror ? 'PGlite, memory mirror' : 'PGlite, direct',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'store-bench-'));
      dirs.push(dir);
      const database = await openPglite(dir);
      return { sandbox: createSandbox({ rateLimit: 1e9, database, mirror, limits }), close: () => database.close() };
    },
  ]),
];
console.log(`load before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${inFlight} in flight, ${seconds} s per case`);
for (const [name, open] of cases) {
  const { sandbox, close } = await open();
  await sandbox.reset();
  await measure(sandbox, 'addBlacklistRecord', add); // warm-up, and records to list
  const added = await measure(sandbox, 'addBlacklistRecord', add);
  const listed = await measure(sandbox, 'listBlacklistRecords', list);
  console.log(`${name.padEnd(22)} add ${String(added.perSecond).padStart(6)}/s ${added.msPerRequest} ms/req (failed ${added.failed})   list ${String(listed.perSecond).padStart(6)}/s ${listed.msPerRequest} ms/req (failed ${listed.failed})   load ${loadavg()[0].toFixed(2)}`);
  await sandbox.close();
  await close();
}
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
