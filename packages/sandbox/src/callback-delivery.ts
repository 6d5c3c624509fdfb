// What both dispatchers (callbacks.ts in memory, sql/outbox.ts from the database) share to deliver one
// attempt: the POST with its timeout, a kept-alive agent per receiver (origin) with at most
// `maxConnectionsPerReceiver` attempts under way to it, and the backoff between attempts.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Limits } from './limits.js';

export type DeliveryPolicy = {
  /** Attempts per event before it is given up (our choice: 10, about 8 minutes of retries at the defaults). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
};

export const defaultDeliveryPolicy: DeliveryPolicy = { maxAttempts: 10, baseDelayMs: 1_000, maxDelayMs: 120_000, timeoutMs: 10_000 };

/** The wait after failed attempt number `attempt`: exponential backoff with full jitter. */
export const backoffMs = (policy: DeliveryPolicy, attempt: number, random: () => number): number => Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)));

/** POSTs `body` and resolves to the status, or rejects on a network error or the timeout. */
export function post(url: URL, agent: HttpAgent, body: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent: the agent (createReceivers), http or https, makes the connection, so either request function sends the same bytes.
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    // `timeout` fires on an idle socket; the timer below also bounds a receiver that trickles its answer.
    // Stryker disable next-line StringLiteral: equivalent: no one reads the error's message (the attempt is logged as failed, without a status).
    const timer = setTimeout(() => request.destroy(new Error('timeout')), timeoutMs);
    // Stryker disable next-line StringLiteral,ArrowFunction,BlockStatement: equivalent while the timer above runs: a socket idle for timeoutMs has been open at least that long, so the timer ends it first or at once.
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}

export type Receiver = { agent: HttpAgent; active: number; waiting: (() => void)[] };

export type Receivers = {
  receiverFor(url: URL): Receiver;
  /** Runs `work` when the receiver has a free turn; the rest wait here, holding no socket. */
  withTurn<T>(receiver: Receiver, work: () => Promise<T>): Promise<T>;
  /** Attempts under way now, to every receiver. */
  inFlight(): number;
  /** Closes the kept-alive connections (an attempt under way fails). */
  destroy(): void;
};

export function createReceivers(limits: Pick<Limits, 'maxConnectionsPerReceiver'>): Receivers {
  const receivers = new Map<string, Receiver>();
  return {
    receiverFor(url: URL): Receiver {
      let receiver = receivers.get(url.origin);
      if (!receiver) {
        const Agent = url.protocol === 'https:' ? HttpsAgent : HttpAgent;
        const agent = new Agent({ keepAlive: true, maxSockets: limits.maxConnectionsPerReceiver, maxFreeSockets: limits.maxConnectionsPerReceiver });
        receivers.set(url.origin, (receiver = { agent, active: 0, waiting: [] }));
      }
      return receiver;
    },
    async withTurn<T>(receiver: Receiver, work: () => Promise<T>): Promise<T> {
      if (receiver.active >= limits.maxConnectionsPerReceiver) await new Promise<void>((resolve) => receiver.waiting.push(resolve));
      else receiver.active++;
      try {
        return await work();
      } finally {
        const next = receiver.waiting.shift();
        if (next) next(); // the turn passes on: `active` stays the same
        else receiver.active--;
      }
    },
    inFlight: () => [...receivers.values()].reduce((sum, r) => sum + r.active, 0),
    destroy() {
      for (const receiver of receivers.values()) receiver.agent.destroy();
      receivers.clear();
    },
  };
}
