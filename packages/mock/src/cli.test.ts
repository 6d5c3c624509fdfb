import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./cli.mjs', import.meta.url));

function startCli() {
  const child = spawn(process.execPath, [cli, '--current-port', '0', '--legacy-port', '0', '--no-standby'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const urls = new Promise<{ current: string; legacy: string }>((resolve, reject) => {
    child.stdout.on('data', () => {
      const current = /current interface: (\S+)/.exec(output)?.[1];
      const legacy = /legacy interface: +(\S+)/.exec(output)?.[1];
      if (current && legacy) resolve({ current, legacy });
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, urls, exited, output: () => output };
}

function rawStatus(url: string, head: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    socket.write(`${head}\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
  });
}

/** Runs the CLI to its end (for flags that end it at once). */
const runCli = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 20_000 });
const flags = ['--host', '--current-port', '--legacy-port', '--verbose', '--no-standby', '--help'];

describe('npm run mock, its flags', () => {
  it.each(['--help', '-h'])('%s prints the usage with every flag and what it does', (flag) => {
    const { status, stdout, stderr } = runCli(flag);
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^Usage: npm run mock -- \[options\]/);
    for (const known of flags) expect(stdout).toMatch(new RegExp(`^  (-h, )?${known}\\b.* \\w+`, 'm'));
  });

  it.each([
    [['--current-prot', '5010'], "error: unknown option '--current-prot' (Did you mean --current-port?)"],
    [['--legacy-port', 'abc'], "error: option '--legacy-port <number>' argument 'abc' is invalid. It must be a whole number from 0 to 65535."],
    [['--current-port', '70000'], "error: option '--current-port <number>' argument '70000' is invalid. It must be a whole number from 0 to 65535."],
    [['--host'], "error: option '--host <address>' argument missing"],
    [['extra'], 'error: too many arguments. Expected 0 arguments but got 1.'],
  ])('%j prints one line and the usage, exit 2, no stack trace', (args, line) => {
    const { status, stdout, stderr } = runCli(...args);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toBe(line);
    expect(stderr).toContain('Usage: npm run mock -- [options]');
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

describe('npm run mock', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('serves both interfaces on 127.0.0.1, quietly, and stops cleanly on %s', async (signal) => {
    const { child, urls, exited, output } = startCli();
    const { current, legacy } = await urls;
    expect(current).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const groups = await fetch(`${current}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":"ck_test_not_a_real_key_0000"}' });
    expect(groups.status).toBe(200);
    const form = new FormData();
    form.append('company_key', 'ck_test_not_a_real_key_0000');
    form.append('session_token', 'session-1');
    expect((await fetch(`${legacy}/external-api/result/`, { method: 'POST', body: form })).status).toBe(200);
    // W1 of issue 14: this request ended Prism's process, and the mock kept running with a dead port.
    expect(await rawStatus(current, 'POST /check-in-%E2%82 HTTP/1.1')).toBe(400);
    expect((await fetch(`${current}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":"ck_test_not_a_real_key_0000"}' })).status).toBe(200);
    child.kill(signal);
    expect(await exited).toBe(0);
    await expect(fetch(`${current}/list-groups`, { method: 'POST' })).rejects.toThrow();
    await expect(fetch(`${legacy}/external-api/result/`, { method: 'POST' })).rejects.toThrow();
    expect(output().trim().split('\n')).toHaveLength(3);
  }, 30_000);
});
