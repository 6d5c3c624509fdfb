// W3: no request holds the event loop for more than 50 ms. The worst export a company can ask for (the
// longest name, the largest settings a begin body can carry, hundreds of attached files, every section)
// runs while another client sends requests. Measured as CPU time between two turns of the event loop, so
// that a busy machine (other processes on the same cores) does not count; the other client's latency is
// printed too.
import { afterEach, expect, it } from 'vitest';
import { keyA, keyB, post, startSandbox } from './hostile.test-helper.js';
import { defaultLimits } from './limits.js';

let t: Awaited<ReturnType<typeof startSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The most CPU time (ms) the process spent between two turns of the event loop while `work` ran. */
async function longestTurn<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number; wallMs: number }> {
  let lastCpu = process.cpuUsage();
  let lastWall = performance.now();
  let cpuMs = 0;
  let wallMs = 0;
  const timer = setInterval(() => {
    const cpu = process.cpuUsage(lastCpu);
    const wall = performance.now();
    cpuMs = Math.max(cpuMs, (cpu.user + cpu.system) / 1000);
    wallMs = Math.max(wallMs, wall - lastWall);
    lastCpu = process.cpuUsage();
    lastWall = wall;
  }, 1);
  try {
    return { result: await work(), cpuMs, wallMs };
  } finally {
    clearInterval(timer);
  }
}

it('the worst export leaves the event loop free: under 50 ms of work between turns, and another client is answered meanwhile', async () => {
  t = await startSandbox();
  const name = 'N'.repeat(defaultLimits.maxTextLength);
  const datasets = Array.from({ length: 900 }, (_, i) => `dataset-${i}-`.padEnd(1_000, 'x'));
  const { id } = (await post(t.url, '/begin', { companyKey: keyA, configId: 'cfg-kyc-standard-01', name, general: { checkScreening: true, screeningDatasets: datasets } })).json;
  const jpeg = 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==';
  for (let i = 0; i < 450; i++) await post(t.url, '/upload-file', { companyKey: keyA, sessionId: id, stepKey: 'documents', questionKey: 'proof-of-address', content: jpeg });
  await post(t.url, '/sandbox/complete-session', { companyKey: keyA, sessionId: id, result: 'approved' });
  const exportAll = () => post(t!.url, '/export-session-as-pdf', { companyKey: keyA, sessionId: id, exportSession: true, exportScreening: true, exportProofOfAddress: true });
  // The first exports of a process compile pdf-lib's code (JIT): not a request's own work.
  for (let i = 0; i < 3; i++) expect((await exportAll()).status).toBe(200);

  const latencies: number[] = [];
  const { result, cpuMs, wallMs } = await longestTurn(async () => {
    const exported = exportAll();
    let done = false;
    void exported.finally(() => (done = true));
    while (!done) {
      const sent = performance.now();
      await post(t!.url, '/list-blacklist-records', { companyKey: keyB });
      latencies.push(performance.now() - sent);
    }
    return exported;
  });
  expect(result.status).toBe(200);
  console.log(`worst export: longest turn ${cpuMs.toFixed(1)} ms of CPU (${wallMs.toFixed(1)} ms of wall time); another client's ${latencies.length} requests took at most ${Math.max(...latencies).toFixed(1)} ms`);
  expect(latencies.length).toBeGreaterThan(1);
  expect(cpuMs).toBeLessThan(50);
}, 60_000);
