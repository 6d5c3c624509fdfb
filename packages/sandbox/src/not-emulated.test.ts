// An operation the spec has and the sandbox has no handler for yet (issue 16): it answers with the 200
// example the spec documents, marked `X-Sandbox-Emulated: false`, instead of a 501 whose prose the spec
// does not describe and the client took for an error code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allHandlers } from './handlers/index.js';
import { keyA, startTestSandbox } from './sandbox.test-helper.js';
import { loadDocument } from './spec.js';

const { getSessionConfig: _left, ...handlers } = allHandlers;
let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
beforeAll(async () => {
  sandbox = await startTestSandbox({ handlers });
});
afterAll(() => sandbox?.close());

const post = (path: string, body: unknown) => fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('an operation without a handler', () => {
  it("answers 200 with the spec's example of its answer, marked as not emulated", async () => {
    const response = await post('/get-session-config', { companyKey: keyA, sessionConfigId: 'cfg-kyc-standard-01' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-sandbox-emulated')).toBe('false');
    const media = (loadDocument('current').paths['/get-session-config']!.post.responses['200'] as any).content['application/json'];
    const documented = media.example ?? (Object.values(media.examples)[0] as any).value;
    expect(documented).toBeDefined();
    expect(await response.json()).toEqual(documented);
  });

  it('still checks the request first: a bad one gets the documented 400', async () => {
    const response = await post('/get-session-config', { companyKey: keyA });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ argumentError: 'wrong-parameters' });
  });

  it('is not marked when a handler answers', async () => {
    const response = await post('/list-groups', { companyKey: keyA });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-sandbox-emulated')).toBeNull();
  });
});
