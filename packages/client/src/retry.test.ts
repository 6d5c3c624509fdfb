import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createClient, IdvApiError, IdvNetworkError, IdvRateLimitError } from './index.js';
import { defaultTimeoutMs } from './operation-client.js';
import { backoffDelay, retryAfterMs } from './retry.js';
import { baseUrl, fakeClock, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const failTwiceThen = (response: () => Response) =>
  fakeFetch((_r, i) => (i < 2 ? Promise.reject(new TypeError('fetch failed')) : response()));
const status = (code: number, headers: Record<string, string> = {}) => new Response('<html>busy</html>', { status: code, headers });
const settings = { companyKey: fakeKey, baseUrl, rateLimit: false as const };

describe('retries', () => {
  it('repeat a network failure of an operation the spec marks x-idempotent, with full-jitter backoff', async () => {
    const clock = fakeClock();
    const { fetch, sent } = failTwiceThen(() => json({ result: [] }));
    const idv = createClient({ ...settings, fetch, clock, random: () => 0.5, retry: { baseDelayMs: 100, maxDelayMs: 1000 } });
    await expect(idv.listBlacklistRecords()).resolves.toEqual({ result: [] });
    expect(sent).toHaveLength(3);
    expect(clock.sleeps).toEqual([50, 100]);
  });

  it('repeat 500, 502, 503 and 504 of an idempotent operation, with the same request id', async () => {
    for (const code of [500, 502, 503, 504]) {
      const { fetch, sent } = fakeFetch((_r, i) => (i === 0 ? status(code) : json({ result: [] })));
      const idv = createClient({ ...settings, fetch, clock: fakeClock() });
      await expect(idv.listUsers()).resolves.toEqual({ result: [] });
      expect(sent).toHaveLength(2);
      const ids = sent.map((s) => new Headers(s.init.headers).get('x-request-id'));
      expect(ids[0]).toBe(ids[1]);
    }
  });

  it('never repeat 400, 501 or 529, even of an idempotent operation', async () => {
    for (const [answer, type] of [
      [() => json({ argumentError: 'wrong-parameters' }, 400), IdvApiError],
      [() => status(501), IdvApiError],
      [() => new Response('Too many requests', { status: 529 }), IdvRateLimitError],
    ] as const) {
      const { fetch, sent } = fakeFetch(answer);
      const idv = createClient({ ...settings, fetch, clock: fakeClock(), maxRetries: 5 });
      await expect(idv.listBlacklistRecords()).rejects.toBeInstanceOf(type);
      expect(sent).toHaveLength(1);
    }
  });

  it('never repeat an operation that changes state, whatever went wrong', async () => {
    for (const answer of [() => Promise.reject(new TypeError('fetch failed')), () => status(503)]) {
      const { fetch, sent } = fakeFetch(answer);
      const idv = createClient({ ...settings, fetch, clock: fakeClock(), maxRetries: 5 });
      await expect(idv.addBlacklistRecord({ query: { reason: 'r', lastName: 'Roe' } })).rejects.toMatchObject({ attempts: 1 });
      expect(sent).toHaveLength(1);
    }
  });

  it('honour Retry-After in seconds or as an HTTP date, and give up on one longer than maxRetryAfterMs', async () => {
    const clock = fakeClock(Date.parse('2026-11-23T10:00:00Z'));
    const { fetch, sent } = fakeFetch((_r, i) =>
      i === 0 ? status(503, { 'retry-after': '3' }) : i === 1 ? status(503, { 'retry-after': 'Mon, 23 Nov 2026 10:00:10 GMT' }) : json({ result: [] }),
    );
    const idv = createClient({ ...settings, fetch, clock, maxRetries: 3 });
    await idv.listUsers();
    expect(clock.sleeps).toEqual([3000, 7000]);
    expect(sent).toHaveLength(3);

    const long = fakeFetch(() => status(503, { 'retry-after': '3600' }));
    const patient = createClient({ ...settings, fetch: long.fetch, clock: fakeClock(), maxRetries: 3 });
    await expect(patient.listUsers()).rejects.toMatchObject({ status: 503, attempts: 1 });
    expect(long.sent).toHaveLength(1);
  });

  it('take maxRetries from the client and from the call, and count the attempts on the error', async () => {
    const { fetch, sent } = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const idv = createClient({ ...settings, fetch, clock: fakeClock(), maxRetries: 1 });
    await expect(idv.listUsers()).rejects.toMatchObject({ attempts: 2, reason: 'network' });
    expect(sent).toHaveLength(2);
    await expect(idv.listUsers(undefined, { maxRetries: 4 })).rejects.toMatchObject({ attempts: 5 });
    expect(sent).toHaveLength(7);
    await expect(idv.listUsers(undefined, { maxRetries: 0 })).rejects.toMatchObject({ attempts: 1 });
    const off = createClient({ ...settings, fetch, clock: fakeClock(), retry: false });
    await expect(off.listUsers()).rejects.toMatchObject({ attempts: 1 });
  });

  it('retry twice by default', async () => {
    const { fetch, sent } = fakeFetch(() => status(502));
    await expect(createClient({ ...settings, fetch, clock: fakeClock() }).listUsers()).rejects.toMatchObject({ status: 502, attempts: 3 });
    expect(sent).toHaveLength(3);
  });

  it('stop when the caller aborts', async () => {
    const controller = new AbortController();
    const { fetch, sent } = fakeFetch(() => {
      controller.abort();
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    });
    const idv = createClient({ ...settings, fetch, clock: fakeClock(), maxRetries: 5 });
    const error = await idv.listUsers(undefined, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvNetworkError);
    expect(error).toMatchObject({ reason: 'aborted', attempts: 1 });
    expect(sent).toHaveLength(1);
  });

  it('wait a full-jitter delay capped by the doubling base and the maximum', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 500, maxRetryAfterMs: 1000 };
    expect(backoffDelay(0, options, () => 0.999)).toBe(99);
    expect(backoffDelay(2, options, () => 0.999)).toBe(399);
    expect(backoffDelay(4, options, () => 0.999)).toBe(499);
    expect(backoffDelay(4, options, () => 0)).toBe(0);
  });

  it('read Retry-After as seconds or a date, and nothing else', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('timeouts', () => {
  const hang = () =>
    fakeFetch(
      (request) =>
        new Promise((_resolve, reject) => request.init.signal?.addEventListener('abort', () => reject(request.init.signal?.reason))),
    );

  it('give up on an attempt after timeoutMs, retrying an idempotent operation', async () => {
    const { fetch, sent } = hang();
    const idv = createClient({ ...settings, fetch, timeoutMs: 20, clock: fakeClock(), maxRetries: 1 });
    const error = await idv.listUsers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvNetworkError);
    expect(error).toMatchObject({ reason: 'timeout', attempts: 2 });
    expect((error as Error).message).toMatch(/TimeoutError: the attempt timed out after 20 ms/);
    expect(sent).toHaveLength(2);
  });

  it('cover reading the body: a server that stalls after the headers is given up on too', async () => {
    const { fetch } = fakeFetch(
      (request) =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"result":'));
              request.init.signal?.addEventListener('abort', () => controller.error(request.init.signal?.reason));
            },
          }),
        ),
    );
    const idv = createClient({ ...settings, fetch, timeoutMs: 20, retry: false });
    await expect(idv.listUsers()).rejects.toMatchObject({ name: 'IdvNetworkError', reason: 'timeout' });
  });

  it('are on by default (one minute), and a call may change or turn off its own', async () => {
    expect(defaultTimeoutMs).toBe(60_000);
    vi.useFakeTimers();
    try {
      const { fetch } = hang();
      const idv = createClient({ ...settings, fetch, retry: false });
      const byDefault = idv.listUsers().catch((e: unknown) => e);
      const longer = idv.listUsers(undefined, { timeoutMs: 120_000 }).catch((e: unknown) => e);
      const never = idv.listUsers(undefined, { timeoutMs: 0 }).catch((e: unknown) => e);
      let settled = 0;
      for (const call of [byDefault, longer, never]) void call.then(() => settled++);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(settled).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(await byDefault).toMatchObject({ name: 'IdvNetworkError', reason: 'timeout' });
      expect(settled).toBe(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await longer).toMatchObject({ reason: 'timeout' });
      await vi.advanceTimersByTimeAsync(3_600_000);
      expect(settled).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('abort the attempt itself, and the caller\'s signal still aborts it, with a timeout or without', async () => {
    const { fetch, sent } = hang();
    const idv = createClient({ ...settings, fetch, timeoutMs: 10, retry: false });
    await expect(idv.listUsers()).rejects.toMatchObject({ reason: 'timeout' });
    expect(sent[0]!.init.signal?.reason).toMatchObject({ name: 'TimeoutError' });
    const controller = new AbortController();
    const aborted = idv.listUsers(undefined, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await aborted).toMatchObject({ reason: 'aborted' });
    expect(sent[1]!.init.signal?.aborted).toBe(true);
    const caller = new AbortController();
    const untimed = idv.listUsers(undefined, { timeoutMs: 0, signal: caller.signal }).catch((e: unknown) => e);
    caller.abort();
    expect(await untimed).toMatchObject({ reason: 'aborted' });
    expect(sent[2]!.init.signal?.aborted).toBe(true);
  });

  it('leave no listener on a caller\'s long-lived signal, and a signal aborted before the call still ends it', async () => {
    const { fetch, sent } = fakeFetch(({ init }) => (init.signal?.aborted ? Promise.reject(init.signal.reason) : json({ result: [] })));
    const idv = createClient({ ...settings, fetch, retry: false });
    const shutdown = new AbortController();
    for (let i = 0; i < 3; i++) await idv.listUsers(undefined, { signal: shutdown.signal });
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
    shutdown.abort();
    expect(await idv.listUsers(undefined, { signal: shutdown.signal }).catch((e: unknown) => e)).toMatchObject({ reason: 'aborted' });
    expect(sent[3]!.init.signal?.aborted).toBe(true);
  });

  it('close the connection of an answer that comes after its attempt timed out', async () => {
    let answer!: (response: Response) => void;
    const late = new Response(new ReadableStream({ start: (controller) => controller.enqueue(new Uint8Array([1])) }));
    const { fetch } = fakeFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const idv = createClient({ ...settings, fetch, timeoutMs: 10, retry: false });
    await expect(idv.listUsers()).rejects.toMatchObject({ reason: 'timeout' });
    answer(late);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(late.body!.getReader().read()).resolves.toEqual({ done: true, value: undefined });
  });
});
