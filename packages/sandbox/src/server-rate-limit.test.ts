// The rate limit's default block (server.test.ts sets its own): an address over the limit stays blocked
// for an hour, as the service does.
import { afterEach, describe, expect, it } from 'vitest';
import { post } from './hostile.test-helper.js';
import { keyA, startTestSandbox } from './sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('an address over the limit', () => {
  it('is blocked for 3600 s when no block time is given', async () => {
    t = await startTestSandbox({ rateLimit: 1 });
    const status = async () => (await post(t!.url, '/list-groups', { companyKey: keyA })).status;
    expect(await status()).toBe(200);
    expect(await status()).toBe(529);
    t.clock.advance(3_599_000);
    expect(await status()).toBe(529);
    t.clock.advance(1_000);
    expect(await status()).toBe(200);
  });
});
