// What a callback receiver answers for each kind of bad delivery: the reason, the status and the message a
// person reads in the log, and the limit counted in bytes as they were sent.
import { webhookTable } from '@idv-toolkit/types';
import { describe, expect, it } from 'vitest';
import { CallbackError, parseCallback, parseCallbackNodeRequest, parseCallbackRequest } from './callbacks.js';

const callbackApiKey = 'cb_test_not_a_real_key_0000';
const options = { callbackApiKey };
const valid = { callbackApiKey, type: 'session-change', sessionId: 's1', result: 'APPROVED' };

function refusal(run: () => unknown): CallbackError {
  try {
    run();
  } catch (error) {
    if (error instanceof CallbackError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('a refused callback', () => {
  it('is a CallbackError by name, with the status to answer for its reason', () => {
    const wrongKey = refusal(() => parseCallback({ ...valid, callbackApiKey: 'cb_test_wrong' }, options));
    expect(wrongKey).toMatchObject({ name: 'CallbackError', reason: 'wrong-key', status: 401, message: 'The callbackApiKey does not match the configured one' });
    expect(String(wrongKey)).toBe('CallbackError: The callbackApiKey does not match the configured one');
    expect(refusal(() => parseCallback('x'.repeat(20), { ...options, maxBytes: 10 }))).toMatchObject({ reason: 'too-large', status: 413, message: 'The callback body is over 10 bytes' });
    expect(refusal(() => parseCallback({ ...valid, type: 'nope' }, options)).status).toBe(400);
    expect(refusal(() => parseCallback('{', options)).status).toBe(400);
  });

  it('says what is wrong with the body', () => {
    const message = (body: unknown) => refusal(() => parseCallback(body, options)).message;
    expect(message('{not json')).toBe('The callback body is not JSON');
    expect(message('null')).toBe('The callback body is not a JSON object');
    expect(message('42')).toBe('The callback body is not a JSON object');
    expect(message('"text"')).toBe('The callback body is not a JSON object');
    expect(message(1n)).toBe('The callback body is not a JSON object');
    const circular: Record<string, unknown> = { ...valid };
    circular.self = circular;
    expect(message(circular)).toBe('The callback body is not JSON');
    expect(message({ ...valid, type: 'session-deleted' })).toBe('Unknown callback type "session-deleted"');
    const { type: _none, ...withoutType } = valid;
    expect(message(withoutType)).toBe('Unknown callback type undefined');
    expect(message({ ...valid, type: 't'.repeat(500) })).toBe(`Unknown callback type "${'t'.repeat(99)}`);
    const { result: _missing, ...withoutResult } = valid;
    expect(message(withoutResult)).toBe('session-change lacks result');
    expect(message({ ...valid, result: 'MAYBE' })).toBe('session-change: result is not a valid value');
  });

  it('of a framework-parsed body is measured as its JSON: a toJSON that gives nothing is no size', () => {
    expect(refusal(() => parseCallback({ toJSON: () => undefined }, { ...options, maxBytes: 5 })).reason).toBe('wrong-key');
  });
});

describe('the options', () => {
  it('need a non-empty string key', () => {
    for (const bad of [undefined, {}, { callbackApiKey: '' }, { callbackApiKey: 42 }]) {
      expect(() => parseCallback(valid, bad as never)).toThrow(new TypeError('parseCallback needs your callbackApiKey: a non-empty string'));
    }
  });

  it('take a positive whole number of bytes as the limit', () => {
    for (const maxBytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => parseCallback(valid, { ...options, maxBytes })).toThrow(new RangeError('maxBytes must be a positive whole number of bytes'));
    }
    const body = JSON.stringify(valid);
    expect(parseCallback(body, { ...options, maxBytes: body.length })).toMatchObject({ type: 'session-change' });
    expect(refusal(() => parseCallback(body, { ...options, maxBytes: body.length - 1 })).reason).toBe('too-large');
  });
});

describe('the size limit', () => {
  // Each text as the value of a field the event documents: body bytes are counted as UTF-8.
  it.each([
    ['ASCII', 'abc'],
    ['U+007F and U+0080 (1 and 2 bytes)', '\u007f\u0080'],
    ['U+07FF and U+0800 (2 and 3 bytes)', '\u07ff\u0800'],
    ['the euro sign (3 bytes)', '€'],
    ['an emoji, a surrogate pair (4 bytes)', '😀'],
    ['the first and the last pairs (U+10000, U+10FFFF)', '\ud800\udc00\udbff\udfff'],
    ['a lone high surrogate before a letter (3 bytes as sent)', '\ud800a'],
    ['a lone low surrogate (3 bytes as sent)', '\udc00a'],
    ['a 3-byte character before a lone low surrogate', '€\udc00'],
    ['U+E000 before a lone low surrogate', '\ue000\udc00'],
    ['a lone high surrogate before a 2-byte character', '\ud800é'],
  ])('counts %s in bytes', (_name, text) => {
    // Built by hand: JSON.stringify would escape a lone surrogate into six ASCII characters.
    const body = `{"callbackApiKey":"${callbackApiKey}","type":"session-change","sessionId":"s-${text}","result":"APPROVED"}`;
    const bytes = Buffer.byteLength(body);
    expect(parseCallback(body, { ...options, maxBytes: bytes })).toMatchObject({ sessionId: `s-${text}` });
    expect(refusal(() => parseCallback(body, { ...options, maxBytes: bytes - 1 })).reason).toBe('too-large');
  });

  it('counts bytes as they came, a byte-order mark included', () => {
    const json = new TextEncoder().encode(JSON.stringify(valid));
    const withMark = new Uint8Array([0xef, 0xbb, 0xbf, ...json]);
    expect(parseCallback(withMark, { ...options, maxBytes: withMark.byteLength })).toMatchObject({ type: 'session-change' });
    expect(refusal(() => parseCallback(withMark, { ...options, maxBytes: withMark.byteLength - 1 })).reason).toBe('too-large');
  });

  it('refuses a declared Content-Length over the limit before reading a byte, and accepts one at it', async () => {
    const endless = { headers: { 'content-length': '100' }, [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<Uint8Array>>(() => {}) }) };
    await expect(parseCallbackNodeRequest(endless, { ...options, maxBytes: 99 })).rejects.toMatchObject({ reason: 'too-large' });
    const stalled = new Request('http://127.0.0.1/callback', { method: 'POST', headers: { 'content-length': '100' }, body: new ReadableStream(), duplex: 'half' } as RequestInit);
    await expect(parseCallbackRequest(stalled, { ...options, maxBytes: 99 })).rejects.toMatchObject({ reason: 'too-large' });

    const body = JSON.stringify(valid);
    const size = String(Buffer.byteLength(body));
    const exact = { headers: { 'content-length': size }, async *[Symbol.asyncIterator]() { yield body; } };
    await expect(parseCallbackNodeRequest(exact, { ...options, maxBytes: body.length })).resolves.toMatchObject({ type: 'session-change' });
    const request = new Request('http://127.0.0.1/callback', { method: 'POST', headers: { 'content-length': size }, body });
    await expect(parseCallbackRequest(request, { ...options, maxBytes: body.length })).resolves.toMatchObject({ type: 'session-change' });
  });
});

describe('a body stream without async iteration (older runtimes)', () => {
  /** A stream that offers only `getReader()`, and records whether it was cancelled. */
  function readerOnly(chunks: Uint8Array[]) {
    let cancelled = false;
    let read = 0;
    const stream = {
      getReader: () => ({
        read: async () => (read < chunks.length ? { done: false, value: chunks[read++] } : { done: true, value: undefined }),
        cancel: async () => void (cancelled = true),
      }),
    };
    return { stream, cancelled: () => cancelled, read: () => read };
  }
  const requestWith = (body: unknown) => ({ headers: new Headers(), body }) as unknown as Request;

  it('is read to its end', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(valid));
    const { stream } = readerOnly([bytes.slice(0, 10), bytes.slice(10)]);
    await expect(parseCallbackRequest(requestWith(stream), options)).resolves.toMatchObject({ type: 'session-change', sessionId: 's1' });
  });

  it('is cancelled, unread past the limit, when it holds too much', async () => {
    const chunk = new Uint8Array(64);
    const body = readerOnly([chunk, chunk, chunk, chunk]);
    await expect(parseCallbackRequest(requestWith(body.stream), { ...options, maxBytes: 100 })).rejects.toMatchObject({ reason: 'too-large' });
    expect(body.read()).toBe(2);
    expect(body.cancelled()).toBe(true);
  });
});

describe('every documented callback', () => {
  it.each(Object.keys(webhookTable))('%s is refused without its key', (type) => {
    const { callbackApiKey: _key, ...rest } = webhookTable[type as keyof typeof webhookTable].example as Record<string, unknown>;
    expect(refusal(() => parseCallback(rest, options)).reason).toBe('wrong-key');
  });
});
