// Which answers close the connection: only those that leave a request unread (a body over the limit, a
// target the server cannot read). A 200, a refusal of a body it read (its schema or a text limit), a 404
// or a 529 keep it open for the client's next request.
import { describe, expect, it } from 'vitest';
import { post, raw, statusOf } from './hostile.test-helper.js';
import { defaultLimits } from './limits.js';
import { keyA, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

describe('the connection', () => {
  it('stays open after a 200, a refusal of a body read, a 404 and a 529', async () => {
    const t = await startSandbox({ rateLimit: 4 });
    const ok = await post(t.url, '/begin', { companyKey: keyA });
    const refused = await post(t.url, '/begin', { companyKey: keyA, name: 42 });
    const overLimit = await post(t.url, '/begin', { companyKey: keyA, name: 'x'.repeat(defaultLimits.maxTextLength + 1) });
    const missing = await post(t.url, '/no-such-operation', {});
    await post(t.url, '/begin', { companyKey: keyA });
    const over = await post(t.url, '/begin', { companyKey: keyA });
    expect([ok, refused, overLimit, missing, over].map((answer) => [answer.status, answer.headers.get('connection')])).toEqual([
      [200, 'keep-alive'],
      [400, 'keep-alive'],
      [400, 'keep-alive'],
      [404, 'keep-alive'],
      [529, 'keep-alive'],
    ]);
  });

  it('is closed after a body over the limit, which was left unread', async () => {
    const t = await startSandbox();
    const answer = await raw(t.url, `POST /begin HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: ${defaultLimits.maxBodyBytes + 1}\r\n\r\n{"companyKey":`);
    expect(statusOf(answer)).toBe(400);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toMatch(/\r\n\r\n\{"argumentError":"wrong-parameters"\}$/);
  });
});
