import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookTable } from '@idv-toolkit/types';
import { describe, expect, it } from 'vitest';
import { CallbackError, parseCallback, parseCallbackNodeRequest, parseCallbackRequest, sameSecret } from './callbacks.js';

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
    expect(sameSecret('', '')).toBe(true);
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
  });
});
