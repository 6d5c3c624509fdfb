import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseCallbackNodeRequest } from '@idv-toolkit/client';
import { webhookTable } from '@idv-toolkit/types';
import { describe, expect, it } from 'vitest';
import { payloadFor, trigger } from './trigger.js';

const key = 'cb_test_not_a_real_key_0000';

describe('npm run trigger', () => {
  it.each(Object.keys(webhookTable))('sends a valid %s that a receiver built with the helper accepts', async (event) => {
    const received: unknown[] = [];
    const server = createServer(async (req, res) => {
      received.push(await parseCallbackNodeRequest(req, { callbackApiKey: key }));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
    expect(await trigger([event, '--url', url, '--key', key, '--sessionId', 'sess_trigger'])).toBe(0);
    server.close();
    expect(received).toEqual([expect.objectContaining({ type: event, sessionId: 'sess_trigger' })]);
  });

  it('takes JSON-looking values as JSON and refuses fields that break the event', () => {
    expect(payloadFor('video-call-status-update', key, { videoFileId: 'null' }).videoFileId).toBeNull();
    expect(() => payloadFor('session-change', key, { result: 'MAYBE' })).toThrow(/result is not a valid value/);
    expect(() => payloadFor('session-deleted', key, {})).toThrow(/Unknown event/);
  });
});

const cli = fileURLToPath(new URL('../dist/trigger.js', import.meta.url));
const usage = 'Usage: npm run trigger -- <event> --url <url> --key <key> [--<field> <value> ...]';

/** Runs the built CLI to its end, asynchronously (a receiver in this process must keep answering). */
function runCli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

describe('npm run trigger, its command line', () => {
  it.each(['--help', '-h'])('%s prints the usage with every flag and event', async (flag) => {
    const { status, stdout, stderr } = await runCli(flag);
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.startsWith(usage)).toBe(true);
    for (const known of ['--url <url>', '--key <key>', '-h, --help']) expect(stdout).toMatch(new RegExp(`^  ${known}\\s+\\w+`, 'm'));
    for (const event of Object.keys(webhookTable)) expect(stdout).toContain(event);
  });

  it.each([
    [['session-change', '--url', 'http://127.0.0.1:9/cb', '--key', key, '--sesionId', 's1'], 'error: --sesionId is not a flag or a field of session-change; did you mean --sessionId?'],
    [['session-change', '--url', 'http://127.0.0.1:9/cb', '--key', key, '--ur', 'x'], 'error: --ur is not a flag or a field of session-change; did you mean --url?'],
    [['session-change', '--url', 'http://127.0.0.1:9/cb', '--key', key, '--result', 'MAYBE'], 'error: session-change: result is not a valid value'],
    [['session-change', '--url', 'http://127.0.0.1:9/cb', '--key', key, '--result'], 'error: --result needs a value'],
    [['session-change', '--url', 'not a url', '--key', key], "error: option '--url <url>' argument 'not a url' is invalid. It must be an http:// or https:// URL."],
    [['session-change', '--url', 'http://127.0.0.1:9/cb'], "error: required option '--key <key>' not specified"],
    [['session-changed', '--url', 'http://127.0.0.1:9/cb', '--key', key], "error: command-argument value 'session-changed' is invalid for argument 'event'."],
  ])('%j prints one line and the usage, exit 2, no stack trace and no key', async (args, line) => {
    const { status, stdout, stderr } = await runCli(...args);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toContain(line);
    expect(stderr).toContain(usage);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain(key);
  });

  it('says in one line that the receiver cannot be reached, exit 1, no key', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { status, stdout, stderr } = await runCli('session-change', '--url', `http://127.0.0.1:${port}/cb`, '--key', key);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`Could not send the callback: connect ECONNREFUSED 127.0.0.1:${port}\n`);
  });

  it('sends the event and prints it with the key redacted', async () => {
    let received: unknown;
    const server = createServer(async (req, res) => {
      received = await parseCallbackNodeRequest(req, { callbackApiKey: key });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
    const { status, stdout, stderr } = await runCli('session-change', `--url=${url}`, '--key', key, '--sessionId', 'sess_cli', '--result=REJECTED');
    server.close();
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    expect(received).toEqual(expect.objectContaining({ type: 'session-change', sessionId: 'sess_cli', result: 'REJECTED' }));
    expect(stdout).toContain('"callbackApiKey": "[redacted]"');
    expect(stdout).not.toContain(key);
  });
});
