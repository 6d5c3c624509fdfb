// W6: a receiver that never answers cannot use up the sandbox's file descriptors. At most
// maxConnectionsPerReceiver deliveries are under way to it; the other events wait without a socket.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { companiesFrom, demoSessionConfigs } from './companies.js';
import { defaultLimits } from './limits.js';
import { createSandbox, type Sandbox } from './server.js';

const key = 'ck_test_callback_bounds_0000';
const openDescriptors = () => readdirSync('/proc/self/fd').length;

let receiver: Server | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  receiver?.closeAllConnections();
  receiver?.close();
});

/** A receiver that takes every connection and never answers. */
async function silentReceiver() {
  const open = new Set<Socket>();
  let most = 0;
  receiver = createServer(() => undefined);
  receiver.on('connection', (socket) => {
    open.add(socket);
    most = Math.max(most, open.size);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`, open, most: () => most };
}

describe('callback delivery to a receiver that never answers', () => {
  it('holds at most maxConnectionsPerReceiver connections for 1,100 pending events, and other clients are still served', async () => {
    const silent = await silentReceiver();
    const before = openDescriptors();
    sandbox = createSandbox({
      companies: companiesFrom({ companies: [{ companyKey: key, callbackUrl: silent.url, callbackApiKey: 'cb_test_bounds_0000', sessionConfigs: demoSessionConfigs }] }),
      deliveryPolicy: { maxAttempts: 10, baseDelayMs: 1_000, maxDelayMs: 120_000, timeoutMs: 60_000 },
    });
    const url = await sandbox.listen(0, '127.0.0.1');
    for (let i = 0; i < 1_100; i++) {
      const { json } = await sandbox.invoke('begin', { companyKey: key });
      await sandbox.invoke('sandboxCompleteSession', { companyKey: key, sessionId: (json as { id: string }).id, result: 'approved' });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const limit = defaultLimits.maxConnectionsPerReceiver;
    expect(silent.most()).toBeLessThanOrEqual(limit);
    expect(sandbox.dispatcher.inFlight()).toBe(limit);
    // Both ends of each connection live in this process (2 descriptors a connection), plus the listener.
    const grown = openDescriptors() - before;
    console.log(`1,100 pending callbacks: ${silent.most()} connections at most, ${grown} more descriptors`);
    expect(grown).toBeLessThanOrEqual(2 * limit + 4);
    const answer = await fetch(`${url}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: key }) });
    expect(answer.status).toBe(200);
  }, 60_000);

  it('under ulimit -n 1024, 1,100 pending events leave the sandbox serving every other request', () => {
    const script = fileURLToPath(new URL('./callback-bounds.child.mjs', import.meta.url));
    const child = spawnSync('bash', ['-c', `ulimit -n 1024 && exec "${process.execPath}" "${script}"`], { encoding: 'utf8', timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    const outcome = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
    expect(outcome).toEqual({ descriptorLimit: 1024, pending: 1100, served: 50, failed: 0, inFlight: defaultLimits.maxConnectionsPerReceiver });
  });

  it('keeps the latest maxCallbackLogEntries attempts of a company, and gives up at once on events over maxQueuedCallbacks', async () => {
    const silent = await silentReceiver();
    sandbox = createSandbox({
      companies: companiesFrom({ companies: [{ companyKey: key, callbackUrl: silent.url, callbackApiKey: 'cb_test_bounds_0000' }] }),
      deliveryPolicy: { maxAttempts: 10, baseDelayMs: 1_000, maxDelayMs: 120_000, timeoutMs: 60_000 },
      limits: { maxCallbackLogEntries: 5, maxQueuedCallbacks: 3, maxConnectionsPerReceiver: 2 },
    });
    await sandbox.listen(0, '127.0.0.1');
    const sessions: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { json } = await sandbox.invoke('begin', { companyKey: key });
      sessions.push((json as { id: string }).id);
      await sandbox.invoke('sandboxCompleteSession', { companyKey: key, sessionId: sessions[i], result: 'approved' });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = (await sandbox.invoke('sandboxListCallbacks', { companyKey: key })).json as { result: { sessionId: string; outcome: string }[] };
    // 3 events queued (2 of them under way, 1 waiting its turn), 5 given up at once; the log keeps the latest 5.
    expect(log.result).toHaveLength(5);
    expect(log.result.map((entry) => entry.sessionId)).toEqual(sessions.slice(3));
    expect(log.result.every((entry) => entry.outcome === 'failed')).toBe(true);
    expect(sandbox.dispatcher.inFlight()).toBe(2);
  });
});
