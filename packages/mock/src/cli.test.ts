import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./cli.mjs', import.meta.url));

function startCli() {
  const child = spawn(process.execPath, [cli, '--current-port', '0', '--legacy-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
    child.kill(signal);
    expect(await exited).toBe(0);
    await expect(fetch(`${current}/list-groups`, { method: 'POST' })).rejects.toThrow();
    await expect(fetch(`${legacy}/external-api/result/`, { method: 'POST' })).rejects.toThrow();
    expect(output().trim().split('\n')).toHaveLength(3);
  }, 30_000);
});
