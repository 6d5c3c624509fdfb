// Delivery of callbacks to a company's callback URL. The reference shows no retry policy, receiver
// answer or ordering; the sandbox's choice: at least once, in order per session (a session's next event
// waits until the one before it is delivered or given up), each attempt with a timeout, and failures
// retried with exponential backoff and full jitter. A 2xx answer is a delivery; anything else, a network
// error or a timeout is a failure. Every attempt is logged with its outcome; the log never holds a key.
//
// Bounded (limits.ts): at most `maxConnectionsPerReceiver` attempts are under way to one receiver (one
// origin) at a time, over kept-alive connections; the rest wait their turn here, holding no socket, so a
// receiver that never answers cannot use up the sandbox's file descriptors. A company's log keeps its
// latest `maxCallbackLogEntries` attempts, and at most `maxQueuedCallbacks` of its events wait at once.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Clock } from './clock.js';
import type { Company } from './companies.js';
import { defaultLimits, type Limits } from './limits.js';
import type { Sandbox } from '@idv-toolkit/types';

export type CallbackEvent = Record<string, unknown> & { type: string; sessionId: string };

/** One attempt, as the control API's callback log shows it (its type comes from openapi/sandbox). */
export type DeliveryAttempt = Sandbox.SandboxCallbackAttempt;

export type DeliveryPolicy = {
  /** Attempts per event before it is given up (our choice: 10, about 8 minutes of retries at the defaults). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
};

export const defaultDeliveryPolicy: DeliveryPolicy = { maxAttempts: 10, baseDelayMs: 1_000, maxDelayMs: 120_000, timeoutMs: 10_000 };

/** Delivers callbacks to companies, in order per session, and logs every attempt. */
export type Dispatcher = {
  /** Queues an event for the company and answers its event ID; a company without a callback URL gets none. */
  enqueue(company: Company, event: CallbackEvent): string | undefined;
  /** The company's latest delivery attempts, oldest first. */
  attempts(companyKey: string): DeliveryAttempt[];
  /** Resolves when every queued event is delivered or given up. */
  idle(): Promise<void>;
  /** Attempts under way now, to every receiver (tests read it). */
  inFlight(): number;
  /** Forgets the log and drops what is queued, for one company or all (reset). */
  clear(companyKey?: string): void;
  /** Closes kept-alive connections. */
  close(): void;
  /** Holds (true) or releases (false) the company's deliveries, new and retried alike (the console's pause). */
  setPaused(companyKey: string, paused: boolean): void;
  isPaused(companyKey: string): boolean;
};

type Receiver = { agent: HttpAgent; active: number; waiting: (() => void)[] };

/** POSTs `body` and resolves to the status, or rejects on a network error or the timeout. */
function post(url: URL, agent: HttpAgent, body: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    // `timeout` fires on an idle socket; the timer below also bounds a receiver that trickles its answer.
    const timer = setTimeout(() => request.destroy(new Error('timeout')), timeoutMs);
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}

export function createDispatcher({
  clock,
  random,
  nextId,
  policy = defaultDeliveryPolicy,
  limits = defaultLimits,
}: {
  clock: Clock;
  random: () => number;
  /** A fresh event ID, e.g. `evt_…` (from the sandbox's IDs, so events never repeat across restarts). */
  nextId: () => string;
  policy?: DeliveryPolicy;
  limits?: Limits;
}): Dispatcher {
  const log = new Map<string, DeliveryAttempt[]>();
  const queues = new Map<string, Promise<void>>();
  const queued = new Map<string, number>();
  const receivers = new Map<string, Receiver>();
  const generations = new Map<string, number>();
  let generation = 0;
  const pauses = new Map<string, { released: Promise<void>; release: () => void }>();
  const release = (companyKey: string) => {
    pauses.get(companyKey)?.release();
    pauses.delete(companyKey);
  };

  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  const generationOf = (companyKey: string) => `${generation}/${generations.get(companyKey) ?? 0}`;

  function receiverFor(url: URL): Receiver {
    let receiver = receivers.get(url.origin);
    if (!receiver) {
      const Agent = url.protocol === 'https:' ? HttpsAgent : HttpAgent;
      const agent = new Agent({ keepAlive: true, maxSockets: limits.maxConnectionsPerReceiver, maxFreeSockets: limits.maxConnectionsPerReceiver });
      receivers.set(url.origin, (receiver = { agent, active: 0, waiting: [] }));
    }
    return receiver;
  }

  async function withTurn<T>(receiver: Receiver, work: () => Promise<T>): Promise<T> {
    if (receiver.active >= limits.maxConnectionsPerReceiver) await new Promise<void>((resolve) => receiver.waiting.push(resolve));
    else receiver.active++;
    try {
      return await work();
    } finally {
      const next = receiver.waiting.shift();
      if (next) next(); // the turn passes on: `active` stays the same
      else receiver.active--;
    }
  }

  function logged(companyKey: string, entry: DeliveryAttempt) {
    let entries = log.get(companyKey);
    if (!entries) log.set(companyKey, (entries = []));
    entries.push(entry);
    if (entries.length > limits.maxCallbackLogEntries) entries.splice(0, entries.length - limits.maxCallbackLogEntries);
  }

  async function deliver(company: Company, eventId: string, event: CallbackEvent, born: string) {
    const body = JSON.stringify({ callbackApiKey: company.callbackApiKey ?? '', ...event });
    const shown = { callbackApiKey: '[redacted]', ...event };
    let url: URL;
    try {
      url = new URL(company.callbackUrl!);
    } catch {
      return;
    }
    const receiver = receiverFor(url);
    for (let attempt = 1; attempt <= policy.maxAttempts && born === generationOf(company.companyKey); attempt++) {
      while (pauses.has(company.companyKey)) await pauses.get(company.companyKey)!.released;
      const outcome = await withTurn(receiver, async () => {
        if (born !== generationOf(company.companyKey)) return 'dropped' as const;
        const entry: DeliveryAttempt = { eventId, attempt, type: event.type, sessionId: event.sessionId, url: company.callbackUrl!, sentAt: new Date(clock.now()).toISOString(), outcome: 'pending', status: null, payload: shown };
        logged(company.companyKey, entry);
        try {
          entry.status = await post(url, receiver.agent, body, policy.timeoutMs);
          entry.outcome = entry.status >= 200 && entry.status < 300 ? 'delivered' : 'failed';
        } catch {
          entry.outcome = 'failed';
        }
        return entry.outcome;
      });
      if (outcome === 'delivered' || outcome === 'dropped') return;
      await sleep(Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))));
    }
  }

  return {
    enqueue(company, event) {
      if (!company.callbackUrl) return undefined;
      const eventId = nextId();
      const companyKey = company.companyKey;
      const waiting = queued.get(companyKey) ?? 0;
      if (waiting >= limits.maxQueuedCallbacks) {
        // Given up at once: the log says so, and nothing more is held for it.
        logged(companyKey, { eventId, attempt: 1, type: event.type, sessionId: event.sessionId, url: company.callbackUrl, sentAt: new Date(clock.now()).toISOString(), outcome: 'failed', status: null, payload: { callbackApiKey: '[redacted]', ...event } });
        return eventId;
      }
      queued.set(companyKey, waiting + 1);
      const key = `${companyKey}\u0000${event.sessionId}`;
      const born = generationOf(companyKey);
      const next = (queues.get(key) ?? Promise.resolve()).then(() => deliver(company, eventId, event, born));
      queues.set(key, next);
      void next.finally(() => {
        queued.set(companyKey, (queued.get(companyKey) ?? 1) - 1);
        if (queues.get(key) === next) queues.delete(key);
      });
      return eventId;
    },
    attempts: (companyKey) => [...(log.get(companyKey) ?? [])],
    async idle() {
      while (queues.size) await Promise.all([...queues.values()]);
    },
    inFlight: () => [...receivers.values()].reduce((sum, r) => sum + r.active, 0),
    clear(companyKey) {
      if (companyKey === undefined) {
        generation++;
        for (const key of [...pauses.keys()]) release(key);
        log.clear();
        queues.clear();
        return;
      }
      generations.set(companyKey, (generations.get(companyKey) ?? 0) + 1);
      release(companyKey);
      log.delete(companyKey);
      for (const key of queues.keys()) if (key.startsWith(`${companyKey}\u0000`)) queues.delete(key);
    },
    close() {
      generation++; // every queued and retrying delivery stops at its next step
      for (const key of [...pauses.keys()]) release(key);
      for (const receiver of receivers.values()) receiver.agent.destroy();
      receivers.clear();
    },
    setPaused(companyKey, paused) {
      if (!paused) return release(companyKey);
      if (pauses.has(companyKey)) return;
      let open = () => {};
      const released = new Promise<void>((resolve) => (open = resolve));
      pauses.set(companyKey, { released, release: open });
    },
    isPaused: (companyKey) => pauses.has(companyKey),
  };
}
