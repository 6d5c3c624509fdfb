// Delivery of callbacks to a company's callback URL. The reference shows no retry policy, receiver
// answer or ordering; the sandbox's choice: at least once, in order per session (a session's next event
// waits until the one before it is delivered or given up), each attempt with a timeout, and failures
// retried with exponential backoff and full jitter. A 2xx answer is a delivery; anything else, a network
// error or a timeout is a failure. Every attempt is logged with its outcome; the log never holds a key.
import type { Clock } from './clock.js';
import type { Company } from './companies.js';
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
  /** Queues an event for the company; a company without a callback URL gets none. */
  enqueue(company: Company, event: CallbackEvent): void;
  /** Every delivery attempt to the company so far, oldest first. */
  attempts(companyKey: string): DeliveryAttempt[];
  /** Resolves when every queued event is delivered or given up. */
  idle(): Promise<void>;
  /** Forgets the log and drops what is queued (reset). */
  clear(): void;
};

export function createDispatcher({ clock, random, policy = defaultDeliveryPolicy }: { clock: Clock; random: () => number; policy?: DeliveryPolicy }): Dispatcher {
  const log = new Map<string, DeliveryAttempt[]>();
  const queues = new Map<string, Promise<void>>();
  let generation = 0;
  let sequence = 0;

  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

  async function deliver(company: Company, eventId: string, event: CallbackEvent, born: number) {
    const body = JSON.stringify({ callbackApiKey: company.callbackApiKey ?? '', ...event });
    const shown = { callbackApiKey: '[redacted]', ...event };
    const entries = log.get(company.companyKey) ?? [];
    log.set(company.companyKey, entries);
    for (let attempt = 1; attempt <= policy.maxAttempts && born === generation; attempt++) {
      const entry: DeliveryAttempt = { eventId, attempt, type: event.type, sessionId: event.sessionId, url: company.callbackUrl!, sentAt: new Date(clock.now()).toISOString(), outcome: 'pending', status: null, payload: shown };
      entries.push(entry);
      try {
        const response = await fetch(company.callbackUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(policy.timeoutMs) });
        await response.arrayBuffer().catch(() => undefined);
        entry.status = response.status;
        entry.outcome = response.ok ? 'delivered' : 'failed';
      } catch {
        entry.outcome = 'failed';
      }
      if (entry.outcome === 'delivered') return;
      await sleep(Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))));
    }
  }

  return {
    enqueue(company, event) {
      if (!company.callbackUrl) return;
      const eventId = `evt_${String(++sequence).padStart(6, '0')}`;
      const key = `${company.companyKey}\u0000${event.sessionId}`;
      const born = generation;
      const next = (queues.get(key) ?? Promise.resolve()).then(() => deliver(company, eventId, event, born));
      queues.set(key, next);
      void next.finally(() => {
        if (queues.get(key) === next) queues.delete(key);
      });
    },
    attempts: (companyKey) => [...(log.get(companyKey) ?? [])],
    async idle() {
      while (queues.size) await Promise.all([...queues.values()]);
    },
    clear() {
      generation++;
      sequence = 0;
      log.clear();
      queues.clear();
    },
  };
}
