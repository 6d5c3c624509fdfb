// Receiving the service's callbacks: check the callbackApiKey in constant time and parse the body into
// the typed union of the six events, with the field rules generated from the spec (webhookTable).
import { webhookTable, type CallbackEvent, type CallbackType } from '@idv-toolkit/types';

export type { CallbackEvent, CallbackType };

export class CallbackError extends Error {
  override readonly name = 'CallbackError';
  constructor(
    /** `wrong-key`: answer 401; `malformed` and `unknown-type`: answer 400. */
    readonly reason: 'wrong-key' | 'malformed' | 'unknown-type',
    message: string,
  ) {
    super(message);
  }
}

/** Compares two secrets in time that depends on their lengths only, never on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  let difference = left.length ^ right.length;
  for (let i = 0; i < Math.max(left.length, right.length); i++) difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return difference === 0;
}

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const fits = (value: unknown, types: readonly string[]) =>
  types.length === 0 || types.some((t) => t === jsonType(value) || (t === 'integer' && Number.isInteger(value)));

/**
 * Parses a callback body (the raw text, or JSON already parsed) and checks it. Throws a CallbackError
 * when the key is wrong, the body is not one of the six documented events, or a field breaks its rule.
 * The service may deliver an event more than once: make your handling idempotent (for session-change,
 * the same sessionId and result twice is one change).
 */
export function parseCallback(body: unknown, { callbackApiKey }: { callbackApiKey: string }): CallbackEvent {
  let event: unknown = body;
  if (typeof body === 'string') {
    try {
      event = JSON.parse(body);
    } catch {
      throw new CallbackError('malformed', 'The callback body is not JSON');
    }
  }
  if (!event || typeof event !== 'object' || Array.isArray(event)) throw new CallbackError('malformed', 'The callback body is not a JSON object');
  const record = event as Record<string, unknown>;
  if (typeof record.callbackApiKey !== 'string' || !sameSecret(record.callbackApiKey, callbackApiKey)) {
    throw new CallbackError('wrong-key', 'The callbackApiKey does not match the configured one');
  }
  const rules = webhookTable[record.type as CallbackType] as (typeof webhookTable)[CallbackType] | undefined;
  if (!rules) throw new CallbackError('unknown-type', `Unknown callback type ${JSON.stringify(record.type)}`);
  for (const field of rules.required) if (!(field in record)) throw new CallbackError('malformed', `${record.type} lacks ${field}`);
  for (const [field, rule] of Object.entries(rules.fields) as [string, { types: readonly string[]; values?: readonly unknown[] }][]) {
    if (!(field in record)) continue;
    const value = record[field];
    if (!fits(value, rule.types) || (rule.values && !rule.values.includes(value))) {
      throw new CallbackError('malformed', `${record.type}: ${field} is not a valid value`);
    }
  }
  return record as CallbackEvent;
}

/** Reads and checks a callback from a web `Request` (fetch-style servers, edge runtimes). */
export async function parseCallbackRequest(request: Request, options: { callbackApiKey: string }): Promise<CallbackEvent> {
  return parseCallback(await request.text(), options);
}

/** Reads and checks a callback from a Node `http.IncomingMessage` (or any stream of byte chunks). */
export async function parseCallbackNodeRequest(request: AsyncIterable<Uint8Array | string>, options: { callbackApiKey: string; maxBytes?: number }): Promise<CallbackEvent> {
  const max = options.maxBytes ?? 1024 * 1024;
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of request) {
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (text.length > max) throw new CallbackError('malformed', `The callback body is over ${max} bytes`);
  }
  return parseCallback(text + decoder.decode(), options);
}
