// A callback URL with https: the sandbox speaks TLS to it and checks its certificate, as any HTTPS client:
// a receiver whose certificate is not trusted gets no callback (each attempt fails, no status); one that
// is trusted gets it. The certificate is a throwaway self-signed one for 127.0.0.1, made by openssl for
// this file; it is trusted by turning certificate checks off in this test process alone
// (NODE_TLS_REJECT_UNAUTHORIZED, which Node reads at each connection).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callbackLog, closeAfterEach, companyA, listen, startCallbackSandbox } from './callback-receiver.test-helper.js';
import { callbackKeyA, keyA } from './sandbox.test-helper.js';

let tls: { key: Buffer; cert: Buffer };
const folder = mkdtempSync(join(tmpdir(), 'idv-callback-tls-'));
beforeAll(() => {
  const [key, cert] = [join(folder, 'key.pem'), join(folder, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-days', '1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  tls = { key: readFileSync(key), cert: readFileSync(cert) };
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

closeAfterEach();

/** An HTTPS receiver on 127.0.0.1 that records what it is sent and answers 200. */
async function startReceiver() {
  const received: { method: string; body: Record<string, unknown> }[] = [];
  const receiver = createServer(tls, (req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      received.push({ method: req.method!, body: JSON.parse(text) });
      res.writeHead(200).end();
    });
  });
  return { url: await listen(receiver, 'https'), received };
}

async function finishedSession(url: string) {
  const t = await startCallbackSandbox({ maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 5_000 }, [companyA(url)]);
  const { id } = (await t.sandbox.invoke('begin', { companyKey: keyA })).json as { id: string };
  await t.sandbox.invoke('sandboxCompleteSession', { companyKey: keyA, sessionId: id, result: 'approved' });
  await t.sandbox.dispatcher.idle();
  const log = await callbackLog(t);
  return { id, log: log.map((entry) => [entry.attempt, entry.outcome, entry.status]) };
}

describe('an https callback URL', () => {
  it('gets the callback over TLS from a receiver the sandbox trusts', async () => {
    vi.stubEnv('NODE_TLS_REJECT_UNAUTHORIZED', '0');
    const { url, received } = await startReceiver();
    const { id, log } = await finishedSession(url);
    expect(received).toEqual([{ method: 'POST', body: { callbackApiKey: callbackKeyA, type: 'session-change', sessionId: id, result: 'APPROVED' } }]);
    expect(log).toEqual([[1, 'delivered', 200]]);
  });

  it('gets nothing when its certificate is not trusted: each attempt fails without a status', async () => {
    const { url, received } = await startReceiver();
    const { log } = await finishedSession(url);
    expect(received).toEqual([]);
    expect(log).toEqual([
      [1, 'failed', null],
      [2, 'failed', null],
    ]);
  });
});
