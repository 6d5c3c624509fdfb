// The admin token in place of a company key, on the operations that document invalid-admin-token besides
// reset: the operator sees every address the rate limit tracks and unblocks any of them; a wrong token is
// refused with invalid-admin-token.
import { describe, expect, it } from 'vitest';
import { post } from './hostile.test-helper.js';
import { adminToken, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

describe('the operator', () => {
  it('lists and unblocks an address that no company\'s request named', async () => {
    const t = await startSandbox({ rateLimit: 1 });
    const page = async () => (await fetch(`${t.url}/widget/?session_token=sess_none`)).status;
    expect(await page()).toBe(404);
    expect(await page()).toBe(529);
    const listed = await post(t.url, '/sandbox/list-rate-limit', { adminToken });
    expect(listed.status).toBe(200);
    expect(listed.json.result).toEqual([expect.objectContaining({ ip: '127.0.0.1', blockedUntil: expect.any(String) })]);
    expect((await post(t.url, '/sandbox/unblock-address', { adminToken, ip: '127.0.0.1' })).json).toEqual({ result: true });
    expect(await page()).toBe(404);
  });

  it('with a wrong token is refused', async () => {
    const t = await startSandbox();
    const answer = await post(t.url, '/sandbox/list-rate-limit', { adminToken: 'adm_test_wrong_0000' });
    expect([answer.status, answer.json]).toEqual([400, { argumentError: 'invalid-admin-token' }]);
  });
});
