// A reload serves the new bundles with no downtime: the new Prism accepts on the port before the old one
// drains (issue 16: every save took the mocks down for 2–5 s).
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundles, startMocks } from './index.mjs';

const folder = mkdtempSync(join(tmpdir(), 'idv-mock-reload-'));
const copies = { current: join(folder, 'current.json'), legacy: join(folder, 'legacy.json') };
const original = { current: readFileSync(bundles.current, 'utf8'), legacy: readFileSync(bundles.legacy, 'utf8') };
let mocks: Awaited<ReturnType<typeof startMocks>>;

beforeAll(async () => {
  writeFileSync(copies.current, original.current);
  writeFileSync(copies.legacy, original.legacy);
  // Prism's start takes tens of seconds on a loaded machine: up to 2 minutes (the default is 30 s).
  mocks = await startMocks({ ports: { current: 0, legacy: 0 }, bundles: copies, log: () => {}, timeoutMs: 120_000 });
}, 150_000);
afterAll(async () => {
  await mocks?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const listGroups = (init: RequestInit = {}) =>
  fetch(`${mocks.urls.current}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":"ck_test_not_a_real_key_0000"}', ...init });

/** One request on a connection of its own; resolves with the status, or the error code (ECONNREFUSED…). */
function freshConnection(url: string): Promise<number | string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.setTimeout(20_000, () => socket.destroy(new Error('timeout')));
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    const body = '{"companyKey":"ck_test_not_a_real_key_0000"}';
    socket.write(`POST /list-groups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/**
 * Requests in a loop until `until` settles, both on kept-alive connections (fetch) and on fresh ones.
 * Resolves to each outcome (200, else what failed) and the longest wait for an answer: a mock that stops
 * before the new one listens shows as a wait as long as Prism's start (connections queue, or are refused).
 */
async function askThroughout(until: Promise<unknown>) {
  let done = false;
  const settled = until.finally(() => (done = true));
  const outcomes: (number | string)[] = [];
  let longestMs = 0;
  // A short pause between requests, so that the loops do not starve the Prisms starting on a shared machine.
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  const loop = async (ask: () => Promise<number | string>) => {
    while (!done) {
      const began = performance.now();
      outcomes.push(await ask());
      longestMs = Math.max(longestMs, performance.now() - began);
      await pause();
    }
  };
  const keptAlive = () => listGroups().then((r) => r.status, (error) => `fetch: ${error.cause?.code ?? error.message}`);
  const fresh = () => freshConnection(mocks.urls.current).then((outcome) => (outcome === 200 ? 200 : `fresh connection: ${outcome}`));
  await Promise.all([loop(keptAlive), loop(keptAlive), loop(fresh), settled]);
  return { outcomes, longestMs };
}

describe('reload()', () => {
  it('serves the new bundles, and not one request in a loop during the reload fails (twice in a row)', async () => {
    for (const round of [1, 2]) {
      const before = mocks.prismPids();
      writeFileSync(copies.current, original.current.replaceAll('grp-compliance-01', `grp-reloaded-${round}`));
      const { outcomes, longestMs } = await askThroughout(mocks.reload());
      expect(outcomes.filter((outcome) => outcome !== 200), `round ${round}`).toEqual([]);
      // One answer of a busy Prism on a loaded machine takes up to a second or two; its start, ten or more.
      expect(longestMs, `round ${round}: the longest wait for an answer`).toBeLessThan(5_000);
      expect(JSON.stringify(await (await listGroups()).json())).toContain(`grp-reloaded-${round}`);
      const after = mocks.prismPids();
      expect(after.current).not.toBe(before.current);
      // Only the bundle that changed gets a new Prism: the legacy one keeps serving.
      expect(after.legacy).toBe(before.legacy);
    }
  }, 120_000);

  it('keeps the Prisms serving when a bundle cannot be read, and rejects', async () => {
    const pids = mocks.prismPids();
    writeFileSync(copies.legacy, '{ not json');
    await expect(mocks.reload()).rejects.toThrow(/JSON/);
    expect(mocks.prismPids()).toEqual(pids);
    expect((await listGroups()).status).toBe(200);
    writeFileSync(copies.legacy, original.legacy);
  });
});
