// Issue 15, "nothing acknowledged is lost": the built command line on PGlite (--data) and on PostgreSQL
// (--database) takes parallel writes (add-blacklist-record, begin, complete-session with callback delivery
// held), is killed with SIGKILL while writes are in flight, and is started again on the same data: every
// write that got a 200 is there, and every callback of a completion that got a 200 is delivered.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { receiveBodies } from '../callback-receiver.test-helper.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const companyKey = 'ck_test_kill_restart_0000';
const dir = mkdtempSync(join(tmpdir(), 'sandbox-kill-'));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the CLI on `store` (its flags) with the `companies` file, and resolves to its origin once it listens. */
function start(store: string[], companies: string): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cli, '--port', '0', '--quiet', '--config', companies, '--rate-limit', '100000000', ...store], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const origin = /^Sandbox .*: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)?.[1];
      if (origin) resolve({ origin, child });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code, signal) => reject(new Error(`the sandbox exited (${code ?? signal}) before listening: ${output}`)));
  });
}

async function post(origin: string, path: string, body: Record<string, unknown>) {
  const response = await fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey, ...body }) });
  return { status: response.status, json: (await response.json()) as any };
}

/**
 * `workers` loops each sending, in turn, add-blacklist-record (a new document number each), begin, another
 * add-blacklist-record, and begin then complete-session (one session-change callback each), until the
 * process dies. Resolves after killing the process with SIGKILL once `acknowledged` records and sessions,
 * and `completions` completions, got a 200 while the other loops' requests are on their way: what each
 * 200 said, and how many requests were in flight at the kill.
 */
async function writeUntilKilled(origin: string, child: ChildProcess, { workers = 12, acknowledged = 160, completions = 40 } = {}) {
  const records = new Map<string, string>(); // document number -> record id
  const sessions: string[] = [];
  const completed: string[] = [];
  let inFlight = 0;
  let next = 0;
  let killedWith = -1;
  const exited = new Promise((resolve) => child.once('exit', (_, signal) => resolve(signal)));
  const loop = async () => {
    for (;;) {
      const n = next++;
      inFlight++;
      try {
        if (n % 2 === 0) {
          const documentNumber = `KILL-${n}`;
          const answer = await post(origin, '/add-blacklist-record', { query: { reason: 'kill -9', documentNumber } });
          if (answer.status === 200) records.set(documentNumber, answer.json.result);
        } else {
          const begun = await post(origin, '/begin', {});
          if (begun.status === 200) {
            sessions.push(begun.json.id);
            if (n % 4 === 3) {
              const done = await post(origin, '/sandbox/complete-session', { sessionId: begun.json.id, result: 'approved' });
              if (done.status === 200) completed.push(begun.json.id);
            }
          }
        }
      } catch {
        return; // cut by the kill: not acknowledged
      } finally {
        inFlight--;
      }
      if (killedWith < 0 && records.size + sessions.length >= acknowledged && completed.length >= completions) {
        killedWith = inFlight;
        child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, loop));
  expect(await exited).toBe('SIGKILL');
  return { records, sessions, completed, inFlightAtKill: killedWith };
}

/** Every record of the company, by document number, read in pages. */
async function storedRecords(origin: string) {
  const found = new Map<string, string>();
  for (let offset = 0; ; offset += 500) {
    const { json } = await post(origin, '/list-blacklist-records', { query: { offset, limit: 500 } });
    for (const record of json.result.data) found.set(record.documentNumber, record.id);
    if (json.result.data.length < 500) return found;
  }
}

const stores: [string, () => Promise<string[]>][] = [
  ['PGlite (--data)', async () => ['--data', join(dir, 'data')]],
  ['PostgreSQL (--database)', async () => ['--database', await createTestDatabase(inject('postgresUrl'))]],
];

// One kill and one restart a store for both halves of the rule (the writes, and the callbacks their
// completions enqueued): each CLI start loads the sandbox and opens the store, most of this file's time.
describe.each(stores)('kill -9 under write load, callbacks held, on %s', (_, flags) => {
  it('keeps every write that got a 200, and delivers the callback of every completion that got a 200, after a restart on the same data', async () => {
    const receiver = await receiveBodies<{ type: string; sessionId: string; result?: string }>();
    const withCallbacks = join(dir, `callbacks-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(withCallbacks, JSON.stringify({ companies: [{ name: 'Kill test', companyKey, callbackUrl: receiver.url, callbackApiKey: 'cb_test_kill_restart_0000' }] }));
    const store = await flags();
    try {
      const first = await start(store, withCallbacks);
      // Held (in the database), so that every event still waits in the outbox when the process dies.
      expect((await post(first.origin, '/sandbox/set-callback-delivery', { paused: true })).status).toBe(200);
      const { records, sessions, completed, inFlightAtKill } = await writeUntilKilled(first.origin, first.child);
      expect(inFlightAtKill).toBeGreaterThan(0);
      expect(records.size).toBeGreaterThan(40);
      expect(sessions.length).toBeGreaterThan(40);
      expect(completed.length).toBeGreaterThanOrEqual(40);
      expect(receiver.received).toEqual([]);

      const second = await start(store, withCallbacks);
      try {
        const stored = await storedRecords(second.origin);
        const lost = [...records].filter(([documentNumber, id]) => stored.get(documentNumber) !== id);
        expect(lost, `${lost.length} of ${records.size} acknowledged records lost`).toEqual([]);
        const missing: string[] = [];
        for (let i = 0; i < sessions.length; i += 20) {
          const answers = await Promise.all(sessions.slice(i, i + 20).map((sessionId) => post(second.origin, '/list-session-activities', { sessionId })));
          answers.forEach((answer, j) => answer.status !== 200 && missing.push(sessions[i + j]!));
        }
        expect(missing, `${missing.length} of ${sessions.length} acknowledged sessions lost`).toEqual([]);

        expect((await post(second.origin, '/sandbox/set-callback-delivery', { paused: false })).status).toBe(200);
        const delivered = () => new Set(receiver.received.filter((body) => body.type === 'session-change' && body.result === 'APPROVED').map((body) => body.sessionId));
        // Waits for the deliveries (bounded, so a lost event fails with the list rather than hanging).
        for (let waited = 0; completed.some((id) => !delivered().has(id)) && waited < 60_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        const undelivered = completed.filter((id) => !delivered().has(id));
        expect(undelivered, `${undelivered.length} of ${completed.length} acknowledged callbacks lost`).toEqual([]);

        // The restarted sandbox takes writes on the same data, and still knows the old ones.
        expect((await post(second.origin, '/add-blacklist-record', { query: { reason: 'after', documentNumber: 'AFTER-KILL' } })).status).toBe(200);
        const [again] = records.keys();
        expect((await post(second.origin, '/add-blacklist-record', { query: { reason: 'again', documentNumber: again } })).json).toEqual({ argumentError: 'already-exists' });
      } finally {
        second.child.kill('SIGKILL');
      }
    } finally {
      receiver.close();
    }
  }, 180_000);
});
