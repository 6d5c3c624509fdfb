// The command line's request log: one line per request on stdout, never a key; --quiet prints none.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoCompanyKey } from './companies.js';
import { batchedLines, formatLine } from './request-log.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const adminToken = 'adm_test_request_log_0000';
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

/** Starts the built command line; resolves with its origin and everything it prints. */
function start(...flags: string[]) {
  child = spawn(process.execPath, [cli, '--memory', '--port', '0', '--admin-token', adminToken, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { text: '' };
  child.stdout!.on('data', (chunk) => (output.text += chunk));
  return new Promise<{ origin: string; output: typeof output }>((resolve, reject) => {
    child!.stdout!.on('data', () => {
      const origin = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output.text)?.[1];
      if (origin) resolve({ origin, output });
    });
    child!.once('exit', (code) => reject(new Error(`exited with ${code}`)));
  });
}

async function traffic(origin: string) {
  const send = (path: string, body: object) => fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.text());
  await send('/begin', { companyKey: demoCompanyKey });
  await send(`/begin?companyKey=${demoCompanyKey}`, { companyKey: demoCompanyKey });
  await send(`/check-in-${demoCompanyKey}`, { companyKey: demoCompanyKey });
  await send('/sandbox/reset', { adminToken });
  await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('npm run sandbox, its request log', () => {
  it('prints one line per request with method, path, operation, status, ms and company name, and never a key', async () => {
    const { origin, output } = await start();
    await traffic(origin);
    const lines = output.text.split('\n').filter((line) => /^(GET|POST) /.test(line));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^POST \/begin begin 200 \d+\.\dms "Demo company"$/);
    expect(lines[2]).toMatch(/^POST \/check-in-\[redacted\] checkInRegistry 400 /);
    expect(lines[3]).toMatch(/^POST \/sandbox\/reset sandboxReset 200 \d+\.\dms "\(admin\)"$/);
    // The start-up lines name the demo company's (fake) key on purpose; request lines never do.
    expect(lines.join('\n')).not.toContain(demoCompanyKey);
    expect(output.text).not.toContain(adminToken);
  });

  it('prints the lines still waiting when it is stopped', async () => {
    const { origin, output } = await start();
    await fetch(`${origin}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: demoCompanyKey }) }).then((r) => r.text());
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    await exited;
    expect(output.text.split('\n').filter((line) => /^POST \/begin begin 200 /.test(line))).toHaveLength(1);
  });

  it('prints no request line with --quiet', async () => {
    const { origin, output } = await start('--quiet');
    await traffic(origin);
    expect(output.text).toContain('Sandbox');
    expect(output.text.split('\n').filter((line) => /^(GET|POST) /.test(line))).toEqual([]);
  });
});

describe('formatLine', () => {
  it('cuts a long path and redacts every secret in it', () => {
    const line = formatLine({ method: 'POST', path: `/x/${'a'.repeat(300)}`, status: 404, ms: 1.25 }, []);
    expect(line).toMatch(/^POST \/x\/a{197}\.\.\. - 404 1\.3ms -$/);
    expect(formatLine({ method: 'GET', path: '/s1/s2/s1', status: 404, ms: 0 }, ['s1', 's2'])).toBe('GET /[redacted]/[redacted]/[redacted] - 404 0.0ms -');
  });
});

describe('batchedLines', () => {
  it('writes the lines of a burst in one piece, 50 ms after the first, or at once when 64 KiB wait', () => {
    vi.useFakeTimers();
    try {
      const writes: string[] = [];
      const log = batchedLines((text) => writes.push(text));
      log('one');
      log('two');
      vi.advanceTimersByTime(49);
      expect(writes).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(writes).toEqual(['one\ntwo\n']);
      log('a'.repeat(64 * 1024));
      expect(writes).toHaveLength(2);
      vi.advanceTimersByTime(100);
      expect(writes).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
