// Receiving the service's callbacks: check the callbackApiKey in constant time, drop it, and parse the
// body into the typed union of the six events, with the field rules generated from the spec (webhookTable).
import { webhookTable, type CallbackEvent as SentCallback, type CallbackType } from '@idv-toolkit/types';
import { readLimited, utf8Length } from './callback-body.js';
import { formatCheckers } from './callback-formats.js';

export type { CallbackType };

type WithoutKey<Event> = Event extends unknown ? Omit<Event, 'callbackApiKey'> : never;
/**
 * A callback as the parsers return it: one of the six events, discriminated by `type`, without the
 * `callbackApiKey` it arrived with (the key is checked, then dropped, so it never reaches your logs or queue).
 */
export type CallbackEvent = WithoutKey<SentCallback>;

/** Why a callback was refused, and the status to answer with. */
export type CallbackErrorReason = 'wrong-key' | 'malformed' | 'unknown-type' | 'too-large';

export class CallbackError extends Error {
  override readonly name = 'CallbackError';
  constructor(
    /** `wrong-key`: answer 401; `too-large`: 413; `malformed` and `unknown-type`: 400. */
    readonly reason: CallbackErrorReason,
    message: string,
  ) {
    super(message);
  }

  /** The HTTP status to answer the service with. */
  get status(): 400 | 401 | 413 {
    return this.reason === 'wrong-key' ? 401 : this.reason === 'too-large' ? 413 : 400;
  }
}

export type CallbackOptions = {
  /** The callback key configured for your company at the service. */
  callbackApiKey: string;
  /** The largest body accepted, in bytes (UTF-8). Default 65 536: the largest documented event is under 1 kB. */
  maxBytes?: number;
};

/** The default body limit in bytes of every parser; the documented events are a few hundred bytes. */
export const defaultCallbackMaxBytes: number = 64 * 1024;

/**
 * Compares two secrets in time that depends on their lengths only, never on where they differ: every
 * UTF-16 code unit of the longer one is visited. Anything but two strings is never equal.
 */
export function sameSecret(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  // Code units, not TextEncoder bytes: the encoder turns every lone surrogate into the same U+FFFD.
  let difference = a.length ^ b.length;
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return difference === 0;
}

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const fits = (value: unknown, types: readonly string[]) =>
  types.length === 0 || types.some((t) => t === jsonType(value) || (t === 'integer' && Number.isInteger(value)));
const has = (record: object, field: string) => Object.prototype.hasOwnProperty.call(record, field);

function limitOf(options: CallbackOptions): number {
  const max = options.maxBytes ?? defaultCallbackMaxBytes;
  if (!Number.isSafeInteger(max) || max <= 0) throw new RangeError('maxBytes must be a positive whole number of bytes');
  return max;
}

function expectedKey(options: CallbackOptions): string {
  // An empty or missing configured key would accept any body that also leaves it empty.
  if (typeof options?.callbackApiKey !== 'string' || options.callbackApiKey.length === 0) {
    throw new TypeError('parseCallback needs your callbackApiKey: a non-empty string');
  }
  return options.callbackApiKey;
}

const tooLarge = (max: number) => new CallbackError('too-large', `The callback body is over ${max} bytes`);

/**
 * Parses a callback body (the raw text, bytes as a Uint8Array or ArrayBuffer, or JSON your framework
 * already parsed) and checks it.
 * Throws a CallbackError when the body is over `maxBytes`, the key is wrong, the body is not one of the
 * documented events, or a field breaks its rule: its type, its values or its `format` (`uri`, `email`, ...).
 * The returned event has no `callbackApiKey`.
 * The service may deliver an event more than once: make your handling idempotent (for session-change,
 * the same sessionId and result twice is one change).
 */
export function parseCallback(body: unknown, options: CallbackOptions): CallbackEvent {
  const key = expectedKey(options);
  const max = limitOf(options);
  let event: unknown = body;
  if (body instanceof ArrayBuffer) body = new Uint8Array(body);
  if (body instanceof Uint8Array) {
    if (body.byteLength > max) throw tooLarge(max);
    event = new TextDecoder().decode(body);
  } else if (typeof body !== 'string' && body !== null && typeof body === 'object') {
    // Already parsed by a framework: measured as the JSON it came from, so one limit holds everywhere.
    let text: string | undefined;
    try {
      text = JSON.stringify(body);
    } catch {
      throw new CallbackError('malformed', 'The callback body is not JSON');
    }
    if (utf8Length(text ?? '') > max) throw tooLarge(max);
  }
  if (typeof event === 'string') {
    if (utf8Length(event) > max) throw tooLarge(max);
    try {
      event = JSON.parse(event);
    } catch {
      throw new CallbackError('malformed', 'The callback body is not JSON');
    }
  }
  if (!event || typeof event !== 'object' || Array.isArray(event)) throw new CallbackError('malformed', 'The callback body is not a JSON object');
  const record = event as Record<string, unknown>;
  if (!has(record, 'callbackApiKey') || !sameSecret(record.callbackApiKey, key)) {
    throw new CallbackError('wrong-key', 'The callbackApiKey does not match the configured one');
  }
  const type = record.type;
  // Own names only: `constructor` or `__proto__` must not find Object.prototype's members.
  if (typeof type !== 'string' || !has(webhookTable, type)) {
    throw new CallbackError('unknown-type', `Unknown callback type ${JSON.stringify(type)?.slice(0, 100)}`);
  }
  const rules = webhookTable[type as CallbackType];
  for (const field of rules.required) if (!has(record, field)) throw new CallbackError('malformed', `${type} lacks ${field}`);
  for (const [field, rule] of Object.entries(rules.fields) as [string, { types: readonly string[]; values?: readonly unknown[]; format?: string }][]) {
    if (!has(record, field)) continue;
    const value = record[field];
    if (!fits(value, rule.types) || (rule.values && !rule.values.includes(value))) {
      throw new CallbackError('malformed', `${type}: ${field} is not a valid value`);
    }
    // As in JSON Schema, a format constrains strings only.
    if (typeof value === 'string' && formatCheckers[rule.format!]?.(value) === false) {
      throw new CallbackError('malformed', `${type}: ${field} is not a valid ${rule.format}`);
    }
  }
  const { callbackApiKey: _checked, ...rest } = record;
  return rest as CallbackEvent;
}

/** Reads and checks a callback from a web `Request` (fetch-style servers, edge runtimes), stopping at `maxBytes`. */
export async function parseCallbackRequest(request: Request, options: CallbackOptions): Promise<CallbackEvent> {
  expectedKey(options);
  const max = limitOf(options);
  const declared = Number(request.headers.get('content-length'));
  if (declared > max) throw tooLarge(max);
  const bytes = request.body ? await readLimited(request.body, max, tooLarge) : new Uint8Array();
  return parseCallback(bytes, options);
}

/** Reads and checks a callback from a Node `http.IncomingMessage` (or any stream of byte chunks), stopping at `maxBytes`. */
export async function parseCallbackNodeRequest(
  request: AsyncIterable<Uint8Array | string> & { headers?: Record<string, string | string[] | undefined> },
  options: CallbackOptions,
): Promise<CallbackEvent> {
  expectedKey(options);
  const max = limitOf(options);
  const declared = Number(request.headers?.['content-length']);
  if (declared > max) throw tooLarge(max);
  return parseCallback(await readLimited(request, max, tooLarge), options);
}
