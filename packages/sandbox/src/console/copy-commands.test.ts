// What the request page's "Copy as curl" and "Copy as a client call" give (console/pages-requests.ts), for
// each kind of logged request: JSON with the key as `$IDV_COMPANY_KEY` (never the key), a cut or non-JSON
// body as logged, a multipart upload with its file as `@FILE`, no body, and the method name of the typed
// client for each interface. console.test.ts runs a curl command for real; these read the text.
import type { Sandbox } from '@idv-toolkit/types';
import { describe, expect, it } from 'vitest';
import { clientCall, curlCommand } from './pages-requests.js';

type Logged = Sandbox.SandboxLoggedRequest;
const body = (text: string | null, contentType: string | null = 'application/json'): Logged['request'] => ({ contentType, size: text?.length ?? 0, truncated: false, text }) as Logged['request'];
const logged = (fields: Partial<Logged>): Logged =>
  ({ id: 'req_1', time: '2026-01-01T00:00:00.000Z', method: 'POST', path: '/begin', api: 'current', operation: 'begin', status: 200, durationMs: 1, sourceIp: '127.0.0.1', sessionId: null, request: body(null, null), response: body(null, null), ...fields }) as Logged;
const origin = 'http://127.0.0.1:8080';

describe('copy as curl', () => {
  it('sends JSON with the company key from the environment and quotes what the shell would read', () => {
    const entry = logged({ request: body(JSON.stringify({ companyKey: '[redacted]', reason: "It's", n: 1 })) });
    expect(curlCommand(entry, origin)).toBe(
      `curl -X POST 'http://127.0.0.1:8080/begin' \\\n  -H 'content-type: application/json' \\\n  --data '{"companyKey":"'"$IDV_COMPANY_KEY"'","reason":"It'\\''s","n":1}'`,
    );
    const legacy = logged({ path: '/external-api/result/', api: 'legacy', request: body(JSON.stringify({ company_key: '[redacted]', session_token: 's' }), 'application/json; charset=utf-8') });
    expect(curlCommand(legacy, origin)).toContain(`--data '{"company_key":"'"$IDV_COMPANY_KEY"'","session_token":"s"}'`);
  });

  it('sends a JSON body without a key, one that is cut or not JSON, as logged', () => {
    expect(curlCommand(logged({ request: body('{"a":1}') }), origin)).toContain(`--data '{"a":1}'`);
    expect(curlCommand(logged({ request: body('{"cut": "it') }), origin)).toContain(`--data '{"cut": "it'`);
    expect(curlCommand(logged({ request: body('[1,2]') }), origin)).toContain(`--data '[1,2]'`);
    expect(curlCommand(logged({ request: body('null') }), origin)).toContain(`--data 'null'`);
  });

  it('sends a form field by field: the key from the environment, a file as @FILE', () => {
    const form = logged({ path: '/upload-file', request: body(JSON.stringify({ company_key: '[redacted]', companyKey: '[redacted]', file: '[file a.png, 69 bytes]', note: "O'Sample" }), 'multipart/form-data; boundary=x') });
    expect(curlCommand(form, origin)).toBe(
      `curl -X POST 'http://127.0.0.1:8080/upload-file' \\\n  -F "company_key=$IDV_COMPANY_KEY" \\\n  -F "companyKey=$IDV_COMPANY_KEY" \\\n  -F 'file=@FILE' \\\n  -F 'note=O'\\''Sample'`,
    );
  });

  it('sends nothing more for a request without a body, or with one of another type', () => {
    expect(curlCommand(logged({ method: 'GET', path: '/widget/' }), origin)).toBe(`curl -X GET 'http://127.0.0.1:8080/widget/'`);
    expect(curlCommand(logged({ request: body('a=1', 'application/x-www-form-urlencoded') }), origin)).toBe(`curl -X POST 'http://127.0.0.1:8080/begin'`);
    expect(curlCommand(logged({ request: body('', 'multipart/form-data; boundary=x') }), origin)).toBe(`curl -X POST 'http://127.0.0.1:8080/begin'`);
  });
});

describe('copy as a client call', () => {
  it("names the client and method of each interface, with the body's fields but the key", () => {
    expect(clientCall(logged({ request: body(JSON.stringify({ companyKey: 'x', configId: 'c' })) }))).toBe('await idv.begin({\n  "configId": "c"\n});');
    expect(clientCall(logged({ api: 'legacy', operation: 'legacyGetResult', request: body(JSON.stringify({ company_key: 'x', session_token: 's' })) }))).toBe('await legacy.getResult({\n  "session_token": "s"\n});');
    expect(clientCall(logged({ api: 'sandbox', operation: 'sandboxListRequests', request: body(JSON.stringify({ companyKey: 'x' })) }))).toBe('await control.listRequests();');
  });

  it('calls without arguments for no body, a body that is not JSON or not an object', () => {
    expect(clientCall(logged({}))).toBe('await idv.begin();');
    expect(clientCall(logged({ request: body('{"cut') }))).toBe('await idv.begin();');
    expect(clientCall(logged({ request: body('7') }))).toBe('await idv.begin();');
    expect(clientCall(logged({ request: body('null') }))).toBe('await idv.begin();');
  });

  it('has none for the applicant page or a path that names no operation', () => {
    const none = '// The applicant page is a browser page: no client method.';
    expect(clientCall(logged({ api: 'applicant-page', operation: 'applicantPage' }))).toBe(none);
    expect(clientCall(logged({ operation: null }))).toBe(none);
  });
});
