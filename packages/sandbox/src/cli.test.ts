// `npm run sandbox` as a user meets it: the built CLI, its usage, its one-line errors, and never a key.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const key = 'ck_test_cli_config_0000';
const callbackKey = 'cb_test_cli_config_0000';
const runCli = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 20_000 });
const flags = ['--host', '--port', '--config', '--seed', '--rate-limit', '--block-seconds', '--admin-token', '--quiet', '--help'];
const usage = 'Usage: npm run sandbox -- [options]';

function configFile(name: string, text: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'sandbox-cli-')), name);
  writeFileSync(file, text);
  return file;
}

describe('npm run sandbox, its flags', () => {
  it.each(['--help', '-h'])('%s prints the usage with every flag and what it does', (flag) => {
    const { status, stdout, stderr } = runCli(flag);
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.startsWith(usage)).toBe(true);
    for (const known of flags) expect(stdout).toMatch(new RegExp(`^  (-h, )?${known}\\b.* \\w+`, 'm'));
  });

  it.each([
    [['--prot', '4020'], "error: unknown option '--prot' (Did you mean --port?)"],
    [['--port', 'abc'], "error: option '--port <number>' argument 'abc' is invalid. It must be a whole number from 0 to 65535."],
    [['--rate-limit', '0'], "error: option '--rate-limit <number>' argument '0' is invalid. It must be a whole number of 1 or more."],
    [['--seed', '-1'], "error: option '--seed <number>' argument '-1' is invalid. It must be a whole number of 0 or more."],
    [['--block-seconds', '1.5'], "error: option '--block-seconds <number>' argument '1.5' is invalid. It must be a whole number of 0 or more."],
    [['--config'], "error: option '--config <file>' argument missing"],
    [['4020'], 'error: too many arguments. Expected 0 arguments but got 1.'],
    [['--memory', '--data', 'somewhere'], 'error: choose one of --memory, --data and --database, not --memory and --data'],
    [['--seed', '1', '--database', 'postgres://127.0.0.1:1/db'], 'error: --seed repeats IDs after a restart, so it keeps its data in memory only: leave out --database'],
  ])('%j prints one line and the usage, exit 2, no stack trace', (args, line) => {
    const { status, stdout, stderr } = runCli(...args);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toBe(line);
    expect(stderr).toContain(usage);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('names a misspelled configuration field and suggests the known one, printing no key', () => {
    const file = configFile('companies.yaml', `companies:\n  - companyKey: ${key}\n    callbackURL: http://127.0.0.1:3000/cb\n    callbackApiKey: ${callbackKey}\n`);
    const { status, stdout, stderr } = runCli('--config', file);
    expect(status).toBe(2);
    expect(stderr).toBe(`Invalid sandbox configuration in ${file}:\n- companies[0].callbackURL is not a known field; did you mean callbackUrl?\n`);
    expect(stdout + stderr).not.toContain('_test_cli_');
  });

  it('names a configuration file it cannot read, in one line', () => {
    const { status, stderr } = runCli('--config', '/nonexistent/companies.yaml');
    expect(status).toBe(2);
    expect(stderr).toBe('Cannot read the configuration file /nonexistent/companies.yaml: no such file\n');
  });

  it('says a taken port in one line, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const { status, stderr } = runCli('--memory', '--port', String(port));
    taken.close();
    expect(status).toBe(1);
    expect(stderr).toBe(`Port ${port} on 127.0.0.1 is taken; choose another with --port.\n`);
  });

  it('serves the companies of a configuration file, names them, prints no key or admin token, and stops on SIGTERM', async () => {
    const file = configFile('companies.json', JSON.stringify({ companies: [{ name: 'Acme (test)', companyKey: key, callbackApiKey: callbackKey }] }));
    const child = spawn(process.execPath, [cli, '--port', '0', '--config', file, '--seed', '7', '--rate-limit', '100', '--block-seconds', '5', '--admin-token', 'adm_test_cli_token_0000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const origin = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const found = /Companies: .*\n/.test(output) && /: (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output)?.[1];
        if (found) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    const answer = await fetch(`${origin}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: key }) });
    expect(answer.status).toBe(200);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('Companies: Acme (test)');
    expect(output).not.toContain('_test_cli_');
  });

  it('keeps its data in the --data directory: a record added before a SIGTERM is there after a restart', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'sandbox-cli-data-')), 'data');
    const start = async () => {
      const child = spawn(process.execPath, [cli, '--port', '0', '--quiet', '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stderr.on('data', (chunk) => (output += chunk));
      const origin = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const found = /Demo company key/.test(output) && /: (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output)?.[1];
          if (found) resolve(found);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const stop = async () => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      };
      return { origin, output, stop };
    };
    const call = (origin: string, path: string, query: unknown) =>
      fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: 'ck_test_sandbox_demo_key_0000', query }) }).then((r) => r.json() as Promise<any>);
    const first = await start();
    expect(first.output).toContain(`Data: PGlite in ${data} (new)`);
    const added = await call(first.origin, '/add-blacklist-record', { reason: 'kept', documentNumber: 'CLI-1' });
    await first.stop();
    const second = await start();
    try {
      expect(second.output).toContain(`Data: PGlite in ${data} (kept`);
      expect((await call(second.origin, '/list-blacklist-records', {})).result.data).toEqual([{ id: added.result, reason: 'kept', documentNumber: 'CLI-1' }]);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
