import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookTable } from '@idv-toolkit/types';
import { describe, expect, it } from 'vitest';
import { CallbackError, defaultCallbackMaxBytes, parseCallback, parseCallbackNodeRequest, parseCallbackRequest, sameSecret } from './callbacks.js';

const callbackApiKey = 'cb_test_not_a_real_key_0000';
const options = { callbackApiKey };
const reasonOf = (run: () => unknown) => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return (error as CallbackError).reason;
  }
};

describe('parseCallback', () => {
  it.each(Object.entries(webhookTable))('accepts the documented example of %s', (type, { example }) => {
    const event = parseCallback(JSON.stringify(example), options);
    expect(event.type).toBe(type);
  });

  it('drops the key from the event it returns, after checking it', () => {
    const { example } = webhookTable['session-change'];
    const bytes = new TextEncoder().encode(JSON.stringify(example));
    for (const body of [JSON.stringify(example), example, bytes, bytes.buffer]) {
      const event = parseCallback(body, options);
      expect(Object.keys(event)).not.toContain('callbackApiKey');
      expect(JSON.stringify(event)).not.toContain(callbackApiKey);
      expect(event).toEqual(Object.fromEntries(Object.entries(example).filter(([name]) => name !== 'callbackApiKey')));
    }
    expect(example).toHaveProperty('callbackApiKey', callbackApiKey);
  });

  it('gives a typed union narrowed by type', () => {
    const event = parseCallback({ callbackApiKey, type: 'session-change', sessionId: 's1', result: 'APPROVED', sessionType: 'kyb' }, options);
    if (event.type === 'session-change') expect(event.result).toBe('APPROVED');
    else throw new Error('narrowing failed');
  });

  it('rejects a wrong key, an unknown type and malformed bodies, saying which', () => {
    const valid = { callbackApiKey, type: 'session-change', sessionId: 's1', result: 'APPROVED' };
    expect(reasonOf(() => parseCallback({ ...valid, callbackApiKey: 'cb_test_wrong' }, options))).toBe('wrong-key');
    expect(reasonOf(() => parseCallback({ ...valid, callbackApiKey: undefined }, options))).toBe('wrong-key');
    expect(reasonOf(() => parseCallback({ ...valid, type: 'session-deleted' }, options))).toBe('unknown-type');
    expect(reasonOf(() => parseCallback('{not json', options))).toBe('malformed');
    expect(reasonOf(() => parseCallback('[]', options))).toBe('malformed');
    expect(reasonOf(() => parseCallback({ ...valid, result: 'MAYBE' }, options))).toBe('malformed');
    expect(reasonOf(() => parseCallback({ ...valid, sessionId: 42 }, options))).toBe('malformed');
    const { result: _dropped, ...withoutResult } = valid;
    expect(reasonOf(() => parseCallback(withoutResult, options))).toBe('malformed');
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'])(
    'answers a callback of type %s with a CallbackError, not a TypeError',
    (type) => {
      const valid = { callbackApiKey, type, sessionId: 's1' };
      expect(reasonOf(() => parseCallback(valid, options))).toBe('unknown-type');
      expect(reasonOf(() => parseCallback(JSON.stringify(valid), options))).toBe('unknown-type');
    },
  );

  it('checks fields as own properties: an inherited or __proto__ field does not count', () => {
    const body = `{"callbackApiKey":"${callbackApiKey}","type":"session-change","sessionId":"s1","__proto__":{"result":"APPROVED"}}`;
    expect(reasonOf(() => parseCallback(body, options))).toBe('malformed');
    const inherited = Object.assign(Object.create({ result: 'APPROVED' }), { callbackApiKey, type: 'session-change', sessionId: 's1' });
    expect(reasonOf(() => parseCallback(inherited, options))).toBe('malformed');
    expect(reasonOf(() => parseCallback(`{"__proto__":{"callbackApiKey":"${callbackApiKey}"},"type":"session-change"}`, options))).toBe('wrong-key');
  });

  it('answers a non-string type or key with a CallbackError', () => {
    for (const type of [null, 42, ['session-change'], { toString: 'x' }]) {
      expect(reasonOf(() => parseCallback({ callbackApiKey, type, sessionId: 's1', result: 'APPROVED' }, options))).toBe('unknown-type');
    }
    for (const key of [null, 42, [callbackApiKey], { key: callbackApiKey }]) {
      expect(reasonOf(() => parseCallback({ callbackApiKey: key, type: 'session-change', sessionId: 's1', result: 'APPROVED' }, options))).toBe('wrong-key');
    }
  });

  it('refuses to run without a configured key, rather than accepting an empty one', () => {
    const body = { callbackApiKey: '', type: 'session-change', sessionId: 's1', result: 'APPROVED' };
    expect(() => parseCallback(body, { callbackApiKey: '' })).toThrow(TypeError);
    expect(() => parseCallback(body, { callbackApiKey: undefined as unknown as string })).toThrow(TypeError);
  });

  it('never puts the key in its errors', () => {
    try {
      parseCallback({ callbackApiKey: 'cb_test_wrong', type: 'session-change' }, options);
    } catch (error) {
      expect(String(error)).not.toContain(callbackApiKey);
      expect(String(error)).not.toContain('cb_test_wrong');
    }
  });
});

describe('sameSecret', () => {
  it('compares whole secrets', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('abcd', 'abc')).toBe(false);
    expect(sameSecret('xbc', 'abc')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
  });

  it('compares every code unit: secrets that differ only in lone surrogates are not equal', () => {
    expect(sameSecret('ck\ud800', 'ck\udbff')).toBe(false);
    expect(sameSecret('ck\udc00x', 'ck\ufffdx')).toBe(false);
    expect(sameSecret('ck\ud83d\ude00', 'ck\ud83d\ude00')).toBe(true);
  });

  it('is false for anything but two strings, whatever it is given', () => {
    const values: unknown[] = [undefined, null, 0, 1, NaN, true, {}, [], ['abc'], { toString: () => 'abc' }, new String('abc')];
    for (const value of values) {
      expect(sameSecret(value, 'abc')).toBe(false);
      expect(sameSecret('abc', value)).toBe(false);
      expect(sameSecret(value, value)).toBe(false);
    }
  });

  it('visits every code unit of the longer secret, wherever they differ', () => {
    // Counts the reads of each string's code units: the same for a first-unit and a last-unit difference.
    const reads = (a: string, b: string) => {
      let count = 0;
      const original = String.prototype.charCodeAt;
      String.prototype.charCodeAt = function (this: string, index: number) {
        count++;
        return original.call(this, index);
      };
      try {
        sameSecret(a, b);
      } finally {
        String.prototype.charCodeAt = original;
      }
      return count;
    };
    const secret = 'cb_test_not_a_real_key_0000';
    expect(reads(`x${secret.slice(1)}`, secret)).toBe(2 * secret.length);
    expect(reads(`${secret.slice(0, -1)}x`, secret)).toBe(2 * secret.length);
    expect(reads('c', secret)).toBe(2 * secret.length);
  });
});

describe('sizes in bytes', () => {
  const valid = { callbackApiKey, type: 'session-change', sessionId: 's1', result: 'APPROVED' };
  // A body of exactly `size` UTF-8 bytes whose characters are mostly 3-byte ones (fewer characters than bytes).
  const bodyOfBytes = (size: number) => {
    const base = JSON.stringify({ ...valid, sessionId: '' });
    const padding = size - new TextEncoder().encode(base).byteLength;
    const sessionId = '€'.repeat(Math.floor(padding / 3)) + 'x'.repeat(padding % 3);
    const text = JSON.stringify({ ...valid, sessionId });
    expect(new TextEncoder().encode(text).byteLength).toBe(size);
    return text;
  };

  it('counts maxBytes in UTF-8 bytes, not characters, in every form of body', () => {
    const text = bodyOfBytes(300);
    expect(text.length).toBeLessThan(200);
    expect(reasonOf(() => parseCallback(text, { callbackApiKey, maxBytes: 300 }))).toBe('accepted');
    expect(reasonOf(() => parseCallback(text, { callbackApiKey, maxBytes: 299 }))).toBe('too-large');
    expect(reasonOf(() => parseCallback(new TextEncoder().encode(text), { callbackApiKey, maxBytes: 299 }))).toBe('too-large');
    expect(reasonOf(() => parseCallback(new TextEncoder().encode(text).buffer, { callbackApiKey, maxBytes: 299 }))).toBe('too-large');
    expect(reasonOf(() => parseCallback(JSON.parse(text), { callbackApiKey, maxBytes: 299 }))).toBe('too-large');
    expect(reasonOf(() => parseCallback(JSON.parse(text), { callbackApiKey, maxBytes: 300 }))).toBe('accepted');
  });

  it('has a default limit of 64 KiB on parseCallback', () => {
    expect(reasonOf(() => parseCallback(bodyOfBytes(defaultCallbackMaxBytes), options))).toBe('accepted');
    expect(reasonOf(() => parseCallback(bodyOfBytes(defaultCallbackMaxBytes + 1), options))).toBe('too-large');
  });

  it('has a default limit on parseCallbackRequest, counted in bytes, and stops reading there', async () => {
    const request = (text: string) => new Request('http://127.0.0.1/callbacks', { method: 'POST', body: text });
    await expect(parseCallbackRequest(request(bodyOfBytes(defaultCallbackMaxBytes)), options)).resolves.toMatchObject({ type: 'session-change' });
    await expect(parseCallbackRequest(request(bodyOfBytes(defaultCallbackMaxBytes + 1)), options)).rejects.toMatchObject({ reason: 'too-large', status: 413 });
    const text = bodyOfBytes(300);
    await expect(parseCallbackRequest(request(text), { callbackApiKey, maxBytes: 299 })).rejects.toMatchObject({ reason: 'too-large' });
    // A long body without a length (256 KiB of spaces): refused once past the limit, having pulled only what it needed.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 256) controller.close();
        else controller.enqueue(new Uint8Array(1024).fill(0x20));
      },
    });
    const streamed = new Request('http://127.0.0.1/callbacks', { method: 'POST', body: endless, duplex: 'half' } as RequestInit);
    await expect(parseCallbackRequest(streamed, options)).rejects.toMatchObject({ reason: 'too-large' });
    expect(pulled).toBeLessThan(defaultCallbackMaxBytes / 1024 + 4);
  });

  it('has a default limit on parseCallbackNodeRequest, counted in bytes whether chunks are strings or bytes', async () => {
    async function* chunks(text: string, asStrings: boolean) {
      for (let i = 0; i < text.length; i += 50) yield asStrings ? text.slice(i, i + 50) : new TextEncoder().encode(text.slice(i, i + 50));
    }
    for (const asStrings of [true, false]) {
      const text = bodyOfBytes(300);
      await expect(parseCallbackNodeRequest(chunks(text, asStrings), { callbackApiKey, maxBytes: 299 })).rejects.toMatchObject({ reason: 'too-large' });
      await expect(parseCallbackNodeRequest(chunks(text, asStrings), { callbackApiKey, maxBytes: 300 })).resolves.toMatchObject({ type: 'session-change' });
      await expect(parseCallbackNodeRequest(chunks(bodyOfBytes(defaultCallbackMaxBytes + 1), asStrings), options)).rejects.toMatchObject({ reason: 'too-large' });
    }
  });

  it('refuses a declared Content-Length over the limit before reading', async () => {
    const headers = { 'content-length': String(defaultCallbackMaxBytes + 1) };
    let read = false;
    const body = (async function* () {
      read = true;
      yield '{}';
    })();
    await expect(parseCallbackNodeRequest(Object.assign(body, { headers }), options)).rejects.toMatchObject({ reason: 'too-large' });
    expect(read).toBe(false);
  });
});

describe('adapters', () => {
  const body = JSON.stringify({ callbackApiKey, type: 'video-call-status-update', sessionId: 's1', roomId: 'r1', roomStatus: 'ended', compositionStatus: null, videoFileStatus: null, videoFileId: null });

  it('read a web Request', async () => {
    const event = await parseCallbackRequest(new Request('http://127.0.0.1/callbacks', { method: 'POST', body }), options);
    expect(event).toMatchObject({ type: 'video-call-status-update', roomStatus: 'ended' });
  });

  it('read a Node request on a real server', async () => {
    const seen: unknown[] = [];
    const server = createServer(async (req, res) => {
      seen.push(await parseCallbackNodeRequest(req, options).catch((error: CallbackError) => error.reason));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await fetch(url, { method: 'POST', body });
    await fetch(url, { method: 'POST', body: body.replace(callbackApiKey, 'cb_test_wrong') });
    server.close();
    expect(seen).toEqual([expect.objectContaining({ roomId: 'r1' }), 'wrong-key']);
    expect(seen[0]).not.toHaveProperty('callbackApiKey');
  });

  it('answer an oversized body with 413 on a real server, and the sender gets that answer', async () => {
    const server = createServer(async (req, res) => {
      try {
        await parseCallbackNodeRequest(req, { ...options, maxBytes: 1024 });
        res.writeHead(200).end();
      } catch (error) {
        res.writeHead(error instanceof CallbackError ? error.status : 500).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const answers = [
      (await fetch(url, { method: 'POST', body: 'x'.repeat(4096) })).status,
      (await fetch(url, { method: 'POST', body }).then((r) => r.status)),
    ];
    server.close();
    expect(answers).toEqual([413, 200]);
  });
});
