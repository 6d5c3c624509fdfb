// The sandbox's connections to a callback receiver over its life (README: connections "kept alive"): one
// connection serves event after event; closing the sandbox closes it and stops the retries that wait; a
// callback URL that is no URL sends nothing and breaks nothing.
import { createServer, type ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { callbackLog, closeAfterEach, closeLater, closeNow, companyA, listen, startCallbackSandbox, until, type TestSandbox } from './callback-receiver.test-helper.js';
import { companiesFrom } from './companies.js';
import { callbackKeyA, keyA, startTestSandbox } from './sandbox.test-helper.js';

let t: TestSandbox | undefined;
closeAfterEach();

/** A receiver that counts the connections made to it and those still open. */
async function startReceiver(status: number) {
  const counts = { hits: 0, connections: 0, open: 0 };
  const receiver = createServer((req, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      counts.hits++;
      res.writeHead(status).end();
    });
  });
  // Idle connections stay open until the sandbox closes them (Node's server would end them after 5 s).
  receiver.keepAliveTimeout = 0;
  receiver.on('connection', (socket) => {
    counts.connections++;
    counts.open++;
    socket.on('close', () => counts.open--);
  });
  return { url: await listen(receiver), counts };
}

async function start(callbackUrl: string, maxAttempts = 2) {
  t = await startCallbackSandbox({ maxAttempts, baseDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 5_000 }, [companyA(callbackUrl)]);
}

async function finished() {
  const { id } = (await t!.sandbox.invoke('begin', { companyKey: keyA })).json as { id: string };
  await t!.sandbox.invoke('sandboxCompleteSession', { companyKey: keyA, sessionId: id, result: 'approved' });
}

const logOf = () => callbackLog(t!);

describe('connections to a receiver', () => {
  it('are kept alive: three events one after another go over one connection', async () => {
    const { url, counts } = await startReceiver(200);
    await start(url);
    for (let i = 0; i < 3; i++) {
      await finished();
      await t!.sandbox.dispatcher.idle();
    }
    expect(counts).toEqual({ hits: 3, connections: 1, open: 1 });
  });

  it('are closed when the sandbox closes, and a retry that waits is not sent', async () => {
    const { url, counts } = await startReceiver(503);
    await start(url);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await finished();
    await until(async () => (await logOf()).map((entry) => entry.outcome).join() === 'failed' && vi.getTimerCount() === 1, 'the first attempt to fail and its retry to wait');
    await closeNow(t!);
    t = undefined;
    vi.advanceTimersToNextTimer(); // the retry's time has come after the close
    vi.useRealTimers();
    await until(() => counts.open === 0, 'the connection to close');
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(counts).toEqual({ hits: 1, connections: 1, open: 0 });
  });
});

describe('a callback URL that is not a URL', () => {
  it('gets nothing sent and nothing logged, and the sandbox goes on', async () => {
    // The configuration schema refuses such a URL; a company made in code may still hold one.
    const [company] = companiesFrom({ companies: [{ name: 'Company A', companyKey: keyA, callbackUrl: 'http://127.0.0.1:1/', callbackApiKey: callbackKeyA }] });
    company!.callbackUrl = 'not a url';
    t = closeLater(await startTestSandbox({ companies: [company!] }));
    await finished();
    await t.sandbox.dispatcher.idle();
    expect(await logOf()).toEqual([]);
    expect((await t.sandbox.invoke('begin', { companyKey: keyA })).status).toBe(200);
  });
});
