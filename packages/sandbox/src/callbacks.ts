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
//
// In memory by default: a restart loses what waits. With `outbox`, the events wait in the database
// (sql/outbox.ts): durable, shared by every instance on it, each delivered by one instance at a time.
import { backoffMs, createReceivers, defaultDeliveryPolicy, post, type DeliveryPolicy } from './callback-delivery.js';
import type { Clock } from './clock.js';
import type { Company } from './companies.js';
import { defaultLimits, type Limits } from './limits.js';
import { createOutboxDispatcher, type OutboxDispatcher, type OutboxOptions } from './sql/outbox.js';
import type { Sandbox } from '@idv-toolkit/types';

export { defaultDeliveryPolicy, type DeliveryPolicy, type OutboxDispatcher, type OutboxOptions };

export type CallbackEvent = Record<string, unknown> & { type: string; sessionId: string };

/** One attempt, as the control API's callback log shows it (its type comes from openapi/sandbox). */
export type DeliveryAttempt = Sandbox.SandboxCallbackAttempt;

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

type DispatcherOptions = {
  clock: Clock;
  random: () => number;
  /** A fresh event ID, e.g. `evt_…` (from the sandbox's IDs, so events never repeat across restarts). */
  nextId: () => string;
  policy?: DeliveryPolicy;
  limits?: Limits;
};

// The memory overload last, so that `ReturnType<typeof createDispatcher>` stays the memory dispatcher.
export function createDispatcher(options: DispatcherOptions & { outbox: OutboxOptions }): OutboxDispatcher;
export function createDispatcher(options: DispatcherOptions & { outbox?: undefined }): Dispatcher;
export function createDispatcher(options: DispatcherOptions & { outbox?: OutboxOptions }): Dispatcher | OutboxDispatcher {
  return options.outbox ? createOutboxDispatcher({ ...options, ...options.outbox }) : createMemoryDispatcher(options);
}

function createMemoryDispatcher({ clock, random, nextId, policy = defaultDeliveryPolicy, limits = defaultLimits }: DispatcherOptions): Dispatcher {
  const log = new Map<string, DeliveryAttempt[]>();
  const queues = new Map<string, Promise<void>>();
  const queued = new Map<string, number>();
  const receivers = createReceivers(limits);
  const generations = new Map<string, number>();
  let generation = 0;
  const pauses = new Map<string, { released: Promise<void>; release: () => void }>();
  const release = (companyKey: string) => {
    pauses.get(companyKey)?.release();
    pauses.delete(companyKey);
  };

  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  const generationOf = (companyKey: string) => `${generation}/${generations.get(companyKey) ?? 0}`;

  function logged(companyKey: string, entry: DeliveryAttempt) {
    let entries = log.get(companyKey);
    if (!entries) log.set(companyKey, (entries = []));
    entries.push(entry);
    // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent: at or under the cap, splice gets a count of 0 or less and removes nothing.
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
    const receiver = receivers.receiverFor(url);
    // Stryker disable next-line ConditionalExpression: equivalent for the generation: it is checked again when the attempt gets its turn, which drops it.
    for (let attempt = 1; attempt <= policy.maxAttempts && born === generationOf(company.companyKey); attempt++) {
      while (pauses.has(company.companyKey)) await pauses.get(company.companyKey)!.released;
      const outcome = await receivers.withTurn(receiver, async () => {
        if (born !== generationOf(company.companyKey)) return 'dropped' as const;
        const entry: DeliveryAttempt = { eventId, attempt, type: event.type, sessionId: event.sessionId, url: company.callbackUrl!, sentAt: new Date(clock.now()).toISOString(), outcome: 'pending', status: null, payload: shown };
        logged(company.companyKey, entry);
        try {
          entry.status = await post(url, receiver.agent, body, policy.timeoutMs);
          // Stryker disable next-line ConditionalExpression: equivalent for `>= 200`: Node gives no final answer under 200 (1xx answers are interim).
          entry.outcome = entry.status >= 200 && entry.status < 300 ? 'delivered' : 'failed';
        } catch {
          entry.outcome = 'failed';
        }
        return entry.outcome;
      });
      if (outcome === 'delivered' || outcome === 'dropped') return;
      // After the last attempt the event is given up at once: the session's next event must not wait a back-off.
      if (attempt < policy.maxAttempts) await sleep(backoffMs(policy, attempt, random));
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
    inFlight: receivers.inFlight,
    clear(companyKey) {
      if (companyKey === undefined) {
        // Stryker disable next-line UpdateOperator: equivalent: any change of the generation stops the deliveries born before it.
        generation++;
        for (const key of [...pauses.keys()]) release(key);
        log.clear();
        queues.clear();
        return;
      }
      // Stryker disable next-line ArithmeticOperator: equivalent: counting down changes the generation as well as counting up.
      generations.set(companyKey, (generations.get(companyKey) ?? 0) + 1);
      release(companyKey);
      log.delete(companyKey);
      for (const key of queues.keys()) if (key.startsWith(`${companyKey}\u0000`)) queues.delete(key);
    },
    close() {
      // Stryker disable next-line UpdateOperator: equivalent: any change of the generation stops the deliveries born before it.
      generation++; // every queued and retrying delivery stops at its next step
      for (const key of [...pauses.keys()]) release(key);
      receivers.destroy();
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
