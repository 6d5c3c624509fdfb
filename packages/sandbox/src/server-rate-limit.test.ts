// The rate limit's default block (server.test.ts sets its own): an address over the limit stays blocked
// for an hour, as the service does.
import { describe, expect, it } from 'vitest';
import { post } from './hostile.test-helper.js';
import { keyA, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

describe('an address over the limit', () => {
  it('is blocked for 3600 s when no block time is given', async () => {
    const t = await startSandbox({ rateLimit: 1 });
    const status = async () => (await post(t.url, '/list-groups', { companyKey: keyA })).status;
    expect(await status()).toBe(200);
    expect(await status()).toBe(529);
    t.clock.advance(3_599_000);
    expect(await status()).toBe(529);
    t.clock.advance(1_000);
    expect(await status()).toBe(200);
  });
});
