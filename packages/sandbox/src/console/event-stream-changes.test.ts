// Which changes the console's event stream (/console/events, console/app.ts) tells an open page of, with a
// request log and a callback log of the test's own and a fake clock, so that what is NOT sent can be
// checked too: a company's page hears of its own requests only (another company's or a keyless request
// would tell it when others are busy), every change of its callback log (an attempt that appears, ends
// without a status, or a log at its cap that moves on) and nothing while nothing changes (no reload four
// times a second); a slow callback log is asked once at a time; a comment every 15 s keeps the stream open
// through proxies without making the page reload. app-http.test.ts checks the same stream over HTTP.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryAttempt } from '../callbacks.js';
import type { Company } from '../companies.js';
import { cookieName, createConsole } from './app.js';
import type { RequestLog } from './request-log.js';

const keyA = 'ck_test_stream_a_0000';
const keyB = 'ck_test_stream_b_0000';
const adminToken = 'adm_test_stream_0000';
const company = (name: string, companyKey: string): Company => ({ name, companyKey, screeningPaid: false, trustedDatabase: false, registries: [], sessionConfigs: [] });
const change = 'event: change\ndata: 1\n\n';

const attempt = (outcome: DeliveryAttempt['outcome'], status: number | null, n = 1): DeliveryAttempt => ({
  eventId: `evt_${n}`,
  attempt: 1,
  type: 'session-change',
  sessionId: 'sess_1',
  url: 'http://127.0.0.1:9/cb',
  sentAt: '2026-11-23T10:00:00.000Z',
  outcome,
  status,
  payload: { callbackApiKey: '[redacted]' },
});

let listeners: ((entry: { companyKey: string | undefined }) => void)[];
/** The callback log each company's page reads, as the test sets it; `reads` counts the reads. */
let logs: Map<string, DeliveryAttempt[] | Promise<DeliveryAttempt[]>>;
let reads: number;
let app: ReturnType<typeof createConsole>;

beforeEach(() => {
  vi.useFakeTimers();
  listeners = [];
  logs = new Map();
  reads = 0;
  const ring = { subscribe: (listener: (typeof listeners)[number]) => (listeners.push(listener), () => listeners.splice(listeners.indexOf(listener), 1)) } as unknown as RequestLog;
  const dispatcher = {
    attempts: (key: string) => (reads++, logs.get(key) ?? []),
    enqueue: () => undefined,
    setPaused: () => undefined,
    isPaused: () => false,
  };
  const companies = new Map([keyA, keyB].map((key, i) => [key, company(`Company ${'AB'[i]}`, key)]));
  app = createConsole({ companies, adminToken, ring, dispatcher, limiter: { addresses: () => [], unblock: () => false }, invoke: async () => ({ status: 200, json: { result: null } }) });
});
afterEach(() => {
  app.close();
  vi.useRealTimers();
});

/** Opens the stream as `key`'s page; `text` is all it has been sent, `pings` the changes among it. */
async function open(key: string) {
  const req = Object.assign(new EventEmitter(), { method: 'GET', headers: { cookie: `${cookieName}=${encodeURIComponent(key)}` } }) as unknown as IncomingMessage;
  let text = '';
  const res = { writeHead: () => res, write: (chunk: string) => ((text += chunk), true), end: () => {} } as unknown as ServerResponse;
  await app.handle(req, res, new URL('http://127.0.0.1/console/events'), 'http://127.0.0.1');
  await vi.advanceTimersByTimeAsync(0);
  return {
    req,
    get text() {
      return text;
    },
    get pings() {
      return text.split(change).length - 1;
    },
  };
}
const logged = (companyKey: string | undefined) => {
  for (const listener of [...listeners]) listener({ companyKey });
};

describe("a page's event stream and the request log", () => {
  it("tells a company's page of its own requests, not of another company's or of a request that named none", async () => {
    const page = await open(keyA);
    expect(page.text).toBe('retry: 1000\n\n');
    logged(keyB);
    logged(undefined);
    expect(page.pings).toBe(0);
    logged(keyA);
    expect(page.pings).toBe(1);
  });

  it("tells the operator's page of every request", async () => {
    const page = await open(adminToken);
    logged(keyB);
    logged(undefined);
    logged(keyA);
    expect(page.pings).toBe(3);
  });

  it('hears nothing more once the page is closed', async () => {
    const page = await open(keyA);
    page.req.emit('close');
    logged(keyA);
    const before = reads;
    await vi.advanceTimersByTimeAsync(1_000);
    expect([page.pings, reads]).toEqual([0, before]);
  });
});

describe("a page's event stream and the callback log", () => {
  it('tells the page once per change of the log, and never while it stays the same', async () => {
    const page = await open(keyA);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(page.pings).toBe(0);
    // The first attempt appears, under way.
    logs.set(keyA, [attempt('pending', null)]);
    await vi.advanceTimersByTimeAsync(250);
    expect(page.pings).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(page.pings).toBe(1);
    // It ends without a status (a timeout, a refused connection): only its outcome changed.
    logs.set(keyA, [attempt('failed', null)]);
    await vi.advanceTimersByTimeAsync(250);
    expect(page.pings).toBe(2);
    // A log at its cap moves on: as many entries, the last one failed again, with another status.
    logs.set(keyA, [attempt('failed', null), attempt('failed', 500, 2)]);
    await vi.advanceTimersByTimeAsync(250);
    logs.set(keyA, [attempt('failed', 500, 2), attempt('failed', 503, 3)]);
    await vi.advanceTimersByTimeAsync(250);
    expect(page.pings).toBe(4);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(page.pings).toBe(4);
  });

  it('asks a slow callback log once at a time', async () => {
    let answer!: (attempts: DeliveryAttempt[]) => void;
    logs.set(keyA, new Promise((resolve) => (answer = resolve)));
    const page = await open(keyA);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads).toBe(1);
    answer([]);
    logs.set(keyA, []);
    await vi.advanceTimersByTimeAsync(250);
    expect([reads, page.pings]).toEqual([2, 0]);
  });
});

it('sends a comment every 15 s, which keeps the stream open and reloads no page', async () => {
  const page = await open(keyA);
  await vi.advanceTimersByTimeAsync(14_999);
  expect(page.text).toBe('retry: 1000\n\n');
  await vi.advanceTimersByTimeAsync(1);
  expect(page.text).toBe('retry: 1000\n\n: keep-alive\n\n');
  await vi.advanceTimersByTimeAsync(15_000);
  expect([page.text.split(': keep-alive\n\n').length - 1, page.pings]).toEqual([2, 0]);
});
