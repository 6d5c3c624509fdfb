// An error body whose code key holds a sentence (the sandbox's answer for an operation it does not emulate,
// a gateway's message) gives no `code`: a caller's switch on codes must never meet prose (issue 16).
import { describe, expect, it } from 'vitest';
import { createClient, IdvApiError } from './index.js';
import { baseUrl, fakeFetch, fakeKey, json } from './fake-fetch.test-helper.js';

const settings = { companyKey: fakeKey, baseUrl, rateLimit: false as const, retry: false as const };

describe('the code of an error answer', () => {
  it.each([
    ['a sentence under `error`', { error: 'The sandbox does not implement getSessionConfig yet' }, 501],
    ['a sentence under `argumentError`', { argumentError: 'Something went wrong' }, 400],
    ['a non-JSON body', 'Not implemented', 501],
  ])('is undefined for %s, and the body is kept as it came', async (_what, body, status) => {
    const { fetch } = fakeFetch(() => (typeof body === 'string' ? new Response(body, { status }) : json(body, status)));
    const error = await createClient({ ...settings, fetch }).getSessionConfig({ sessionConfigId: 'cfg-1' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdvApiError);
    expect(error).toMatchObject({ status, code: undefined, body });
    expect((error as Error).message).toMatch(new RegExp(`^getSessionConfig failed with HTTP ${status} \\(request id`));
  });

  it('is the documented code when there is one', async () => {
    const { fetch } = fakeFetch(() => json({ argumentError: 'wrong-parameters' }, 400));
    const error = await createClient({ ...settings, fetch }).getSessionConfig({ sessionConfigId: 'cfg-1' } as never).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'wrong-parameters' });
  });
});
