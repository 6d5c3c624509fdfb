// What the callback tests share: a receiver on 127.0.0.1 that a test listens with, the sandbox that sends to
// it, and the clean-up after each test (the sandbox closes first, so its connections go before the
// receiver's; fake timers and stubbed environment variables are undone).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, vi } from 'vitest';
import { demoSessionConfigs } from './companies.js';
import { callbackKeyA, keyA, keyB, startTestSandbox } from './sandbox.test-helper.js';

export type Hit = { body: Record<string, any> };
export type Reply = (hit: Hit, index: number, res: ServerResponse) => void;
export type TestSandbox = Awaited<ReturnType<typeof startTestSandbox>>;
export type DeliveryPolicy = { maxAttempts: number; baseDelayMs: number; maxDelayMs: number; timeoutMs: number };

const sandboxes = new Set<TestSandbox>();
const receivers = new Set<Server | HttpsServer>();

/** Call once at the top of a test file: closes what each test started with this module. */
export function closeAfterEach() {
  afterEach(async () => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    for (const t of sandboxes) await t.close();
    sandboxes.clear();
    for (const receiver of receivers) {
      receiver.closeAllConnections();
      receiver.close();
    }
    receivers.clear();
  });
}

/** Listens with `receiver` on a free port of 127.0.0.1 (closed after the test); its callback URL. */
export async function listen(receiver: Server | HttpsServer, scheme: 'http' | 'https' = 'http') {
  receivers.add(receiver);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
}

/** A receiver that records every request and lets `reply` answer it. */
export async function startReceiver(reply: Reply = (_hit, _index, res) => res.writeHead(200).end()) {
  const hits: Hit[] = [];
  const receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const hit = { body: JSON.parse(text) };
      hits.push(hit);
      reply(hit, hits.length - 1, res);
    });
  });
  return { url: await listen(receiver), hits };
}

/** Company A, with a callback key, and company B, without, sending to `callbackUrl`. */
export const companyA = (callbackUrl: string) => ({ name: 'Company A', companyKey: keyA, callbackUrl, callbackApiKey: callbackKeyA });
export const companyB = (callbackUrl: string) => ({ name: 'Company B', companyKey: keyB, callbackUrl });

/** A test sandbox (closed after the test) with these companies and delivery policy. */
export async function startCallbackSandbox(deliveryPolicy: DeliveryPolicy, companies: unknown[], limits?: Record<string, number>) {
  const t = await startTestSandbox({ deliveryPolicy, ...(limits && { limits }), config: { companies } });
  return closeLater(t);
}

/** Has a sandbox the test started otherwise closed after it. */
export function closeLater(t: TestSandbox) {
  sandboxes.add(t);
  return t;
}

/** Closes the sandbox now, within the test, and not again after it. */
export async function closeNow(t: TestSandbox) {
  sandboxes.delete(t);
  await t.close();
}

/** The company's callback log. */
export const callbackLog = async (t: TestSandbox, companyKey = keyA) => ((await t.sandbox.invoke('sandboxListCallbacks', { companyKey })).json as { result: Record<string, any>[] }).result;

/** Waits, turn by turn of the event loop, until `condition` holds (10 s at most). */
export async function until(condition: () => boolean | Promise<boolean>, what: string) {
  const deadline = performance.now() + 10_000;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`waited for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A receiver that answers 200 and keeps each body it is sent, at `path`; the caller closes it (for tests
 * whose sandbox outlives a test, or runs in another process).
 */
export async function receiveBodies<Body = Record<string, unknown>>(path = '/callbacks') {
  const received: Body[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      received.push(JSON.parse(text));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, received, close: () => (server.closeAllConnections(), server.close()) };
}

/** Company A with the demo session configurations, sending its callbacks to `callbackUrl`. */
export const demoCompanyA = (callbackUrl: string) => ({ companyKey: keyA, callbackUrl, callbackApiKey: callbackKeyA, sessionConfigs: demoSessionConfigs });
