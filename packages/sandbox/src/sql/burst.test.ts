// Issue 15, a burst finding: 3,000 parallel add-blacklist-record against the built command line on PGlite
// (--data) gave about 200 connection resets and connect timeouts. Every request must get an answer (200,
// or the documented 400 already-exists for a repeated identity), none is cut, and every 200 is stored.
// The client is Node's fetch with its defaults (a connection per request, a 10 s connect timeout), in a
// process of its own: a sandbox that keeps its loop busy for seconds cuts requests (its 10 s header timeout)
// and leaves connections unaccepted.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const companyKey = 'ck_test_burst_0000';
const dir = mkdtempSync(join(tmpdir(), 'sandbox-burst-'));
const config = join(dir, 'companies.json');
writeFileSync(config, JSON.stringify({ companies: [{ name: 'Burst test', companyKey }] }));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function start(store: string[]): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cli, '--port', '0', '--quiet', '--config', config, '--rate-limit', '100000000', ...store], { stdio: ['ignore', 'pipe', 'pipe'] });
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

it('answers 3,000 parallel add-blacklist-record on PGlite, each 200 stored, none cut', async () => {
  const { origin, child } = await start(['--data', join(dir, 'data')]);
  try {
    const n = 3_000;
    // 2,700 identities, 300 of them sent twice: each of those gets one 200 and one already-exists.
    const documentNumber = (i: number) => `BURST-${i < 2_700 ? i : i - 2_700}`;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        post(origin, '/add-blacklist-record', { query: { reason: 'burst', documentNumber: documentNumber(i) } }).then(
          (answer) => ({ i, ...answer }),
          (error: Error & { cause?: { code?: string } }) => ({ i, status: 0, json: error.cause?.code ?? error.message }),
        ),
      ),
    );
    const cut = answers.filter((answer) => answer.status === 0);
    expect(cut.length, `${cut.length} of ${n} requests cut, e.g. ${cut[0]?.json}`).toBe(0);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.every((answer) => answer.status === 400 && answer.json.argumentError === 'already-exists')).toBe(true);
    const added = answers.filter((answer) => answer.status === 200);
    expect(added.length).toBe(2_700);
    expect(refused.length).toBe(300);

    const stored = new Map<string, string>();
    for (let offset = 0; ; offset += 1_000) {
      const { json } = await post(origin, '/list-blacklist-records', { query: { offset, limit: 1_000 } });
      for (const record of json.result.data) stored.set(record.documentNumber, record.id);
      if (json.result.data.length < 1_000) break;
    }
    const lost = added.filter((answer) => stored.get(documentNumber(answer.i)) !== answer.json.result);
    expect(lost.length, `${lost.length} of ${added.length} acknowledged records not stored`).toBe(0);
    expect(stored.size).toBe(2_700);
  } finally {
    child.kill('SIGKILL');
  }
}, 300_000);
