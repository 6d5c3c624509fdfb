import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCallbackNodeRequest } from '@idv-toolkit/client';
import { webhookTable } from '@idv-toolkit/types';
import { describe, expect, it } from 'vitest';
import { payloadFor, trigger } from './trigger.js';

const key = 'cb_test_not_a_real_key_0000';

describe('npm run trigger', () => {
  it.each(Object.keys(webhookTable))('sends a valid %s that a receiver built with the helper accepts', async (event) => {
    const received: unknown[] = [];
    const server = createServer(async (req, res) => {
      received.push(await parseCallbackNodeRequest(req, { callbackApiKey: key }));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
    expect(await trigger([event, '--url', url, '--key', key, '--sessionId', 'sess_trigger'])).toBe(0);
    server.close();
    expect(received).toEqual([expect.objectContaining({ type: event, sessionId: 'sess_trigger' })]);
  });

  it('takes JSON-looking values as JSON and refuses fields that break the event', () => {
    expect(payloadFor('video-call-status-update', key, { videoFileId: 'null' }).videoFileId).toBeNull();
    expect(() => payloadFor('session-change', key, { result: 'MAYBE' })).toThrow(/result is not a valid value/);
    expect(() => payloadFor('session-deleted', key, {})).toThrow(/Unknown event/);
  });
});
