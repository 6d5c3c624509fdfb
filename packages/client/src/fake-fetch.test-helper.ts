// A fetch that answers from a function and records what it was sent, injected through the client's
// `fetch` option (no global is replaced), and a clock that moves only when told.
import type { Clock } from './rate-limit.js';

export type SentRequest = { url: string; init: RequestInit; json?: Record<string, unknown>; form?: FormData };

export function fakeFetch(answer: (request: SentRequest, index: number) => Response | Promise<Response>) {
  const sent: SentRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request: SentRequest = { url: String(input), init };
    if (typeof init.body === 'string') request.json = JSON.parse(init.body);
    if (init.body instanceof FormData) request.form = init.body;
    sent.push(request);
    return answer(request, sent.length - 1);
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function fakeClock(start = 0): Clock & { sleeps: number[]; advance(ms: number): void } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

export const fakeKey = 'ck_test_not_a_real_key_0000';
export const baseUrl = 'http://127.0.0.1:4010';
