// Schema-driven fuzzing of the sandbox: for every operation of the current and legacy interfaces and of
// the control API, requests made from a valid one by dropping a field, giving a field any JSON value (or a
// value over a limit: a long string, deep nesting), adding a field, or breaking the body itself; and the
// applicant page with any token, method and form. Every answer must be a 200 or a 400 whose body the
// operation's 400 schema allows (never a 5xx, never an undocumented code, never a hang), and a refused
// request must leave everything stored as it was. 170 requests an operation: over 10,000 in all.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { companiesFrom, createSandbox, type Sandbox } from '@idv-toolkit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createValidator, documents, operations, type Document, type Operation } from './documents.js';
import { validators } from './expect-success.js';
import { fakeKey } from './fake-key.js';
import { makeFixtures, withFixtures } from './sandbox-fixtures.js';
import { valueOf } from './request-values.js';

const require = createRequire(import.meta.url);
const runsPerOperation = 170;
let requestsSent = 0;

const sandboxDocument: Document = JSON.parse(readFileSync(require.resolve('@idv-toolkit/openapi/sandbox.json'), 'utf8'));
const sandboxValidator = createValidator(sandboxDocument);
type Api = 'current' | 'legacy' | 'sandbox';
type Entry = { api: Api; path: string; operation: Operation };
const entries: Entry[] = [...operations, ...Object.entries(sandboxDocument.paths).map(([path, item]) => ({ api: 'sandbox' as const, path, operation: item.post! }))];
const documentOf = (api: Api) => (api === 'sandbox' ? sandboxDocument : documents[api]);
const validatorOf = (api: Api) => (api === 'sandbox' ? sandboxValidator : validators[api]);

let sandbox: Sandbox;
let url: string;
let fixtures: Awaited<ReturnType<typeof makeFixtures>>;
beforeAll(async () => {
  sandbox = createSandbox({ rateLimit: 1_000_000, companies: companiesFrom({ companies: [{ companyKey: fakeKey }] }) });
  url = await sandbox.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await sandbox?.close();
  console.log(`sandbox fuzzing: ${requestsSent} requests`);
});

/** What the company holds, as text: a refused request must leave it exactly so. */
async function stored(): Promise<string> {
  const { sessions, blacklist, users, groups, monitoring, files } = sandbox.state;
  return JSON.stringify(await Promise.all([sessions, blacklist, users, groups, monitoring, files].map((c) => c.list(fakeKey))));
}

// The requests go through node:http on one kept-alive connection, not fetch: in a CPU profile of this file
// fetch (its request objects and web streams) cost more than the sandbox's own answers (undici about 30 %
// of the samples, the sandbox 14 %). The bytes sent are those fetch sends for the same body.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agent.destroy());
type Sent = { method: string; headers?: Record<string, string>; body?: string | FormData | URLSearchParams };

/** Sends the request as fetch would encode it; resolves to the status and the body's text. Fails after 5 s: a hang. */
async function send(target: string, { method, headers = {}, body }: Sent): Promise<{ status: number; text: string }> {
  const head: Record<string, string> = { ...headers };
  let bytes: Buffer | undefined;
  if (typeof body === 'string') {
    bytes = Buffer.from(body);
    head['content-type'] ??= 'text/plain;charset=UTF-8';
  } else if (body instanceof URLSearchParams) {
    bytes = Buffer.from(body.toString());
    head['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
  } else if (body instanceof FormData) {
    const encoded = new Response(body);
    bytes = Buffer.from(await encoded.arrayBuffer());
    head['content-type'] = encoded.headers.get('content-type')!;
  }
  // fetch sends a length of 0 for a POST or PUT without a body (node:http would send it chunked).
  if (bytes || method === 'POST' || method === 'PUT') head['content-length'] = String(bytes?.length ?? 0);
  return new Promise((resolve, reject) => {
    const sending = request(target, { method, headers: head, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    const timer = setTimeout(() => sending.destroy(new Error(`no answer within 5 s: ${method} ${target}`)), 5_000);
    sending.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    sending.end(bytes);
  });
}

/** Each operation starts from the fixtures alone, so that what earlier operations stored does not pile up. */
async function freshFixtures() {
  await sandbox.state.clear(fakeKey);
  fixtures = await makeFixtures(url);
}

function validBody({ api, operation }: Entry): Record<string, unknown> {
  const [, media] = Object.entries(operation.requestBody!.content)[0]!;
  const body = withFixtures(valueOf(documentOf(api), media.schema, false) as Record<string, unknown>, fixtures, operation.operationId);
  return { ...body, [api === 'legacy' ? 'company_key' : 'companyKey']: fakeKey };
}

const deep = (depth: number): unknown => (depth === 0 ? 1 : { a: deep(depth - 1) });
/** Any JSON value, or one just over a limit of the sandbox (limits.ts): a long string, deep nesting, a long array. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(10_001), deep(40), Array.from({ length: 1_001 }, () => 0), -0, 2 ** 53, '\u0000', '__proto__') },
);

type Mutation = { kind: 'drop' | 'set' | 'add'; index: number; value: unknown } | { kind: 'raw'; text: string; type: string };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('drop' as const, 'set' as const, 'add' as const), index: fc.nat(), value: anyValue }),
  fc.record({
    kind: fc.constant('raw' as const),
    text: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(`{"companyKey":"${fakeKey}","limit":1e400}`, `{"companyKey":"${fakeKey}","flags":${'['.repeat(5_000)}${']'.repeat(5_000)}}`, '{"__proto__":{"x":1}}')),
    type: fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', ''),
  }),
);

function requestFor(entry: Entry, change: Mutation): Sent {
  if (change.kind === 'raw') return { method: 'POST', headers: change.type ? { 'content-type': change.type } : {}, body: change.text };
  const body: Record<string, unknown> = { ...validBody(entry) };
  const names = Object.keys(body);
  const name = names[change.index % names.length]!;
  if (change.kind === 'drop') delete body[name];
  else if (change.kind === 'set') body[name] = change.value;
  else body[`extra${change.index}`] = change.value;
  if (entry.api !== 'legacy' && entry.path !== '/compare-faces') return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const form = new FormData();
  for (const [field, value] of Object.entries(body)) {
    if (value instanceof Blob) form.append(field, value, field);
    else if (value !== undefined) form.append(field, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return { method: 'POST', body: form };
}

describe.each(entries.map((entry) => [`${entry.api} ${entry.path}`, entry] as const))('fuzzing %s', (_name, entry) => {
  it('gets only 200 or a documented 400, and a refusal changes nothing', async () => {
    await freshFixtures();
    const path = entry.path.replace('{registry}', 'companies-house');
    const pointer = ['paths', entry.path, 'post', 'responses', '400', 'content', 'application/json', 'schema'];
    // What is stored after a refusal was just read, and a refusal changes nothing: it is the next request's
    // `before` (read again only after a 200).
    let storedNow: string | undefined;
    await fc.assert(
      fc.asyncProperty(mutation, async (change) => {
        const before = storedNow ?? (await stored());
        storedNow = undefined;
        const { status, text } = await send(`${url}${path}`, requestFor(entry, change));
        requestsSent++;
        // Each check calls expect only when it fails (with the same message): 12,000 passing expect calls
        // cost more CPU than the checks themselves.
        if (status !== 200 && status !== 400) expect([200, 400], `${status} ${text}`).toContain(status);
        if (status === 400) {
          const errors = validatorOf(entry.api)(pointer, JSON.parse(text));
          if (errors.length > 0) expect(errors, text).toEqual([]);
          const after = await stored();
          if (after !== before) expect(after).toBe(before);
          storedNow = after;
        }
      }),
      { numRuns: runsPerOperation, seed: 42 },
    );
  });
});

describe('fuzzing the applicant page', () => {
  it('gets only 200, 400, 404 or 405, and a refused finishing POST changes nothing', async () => {
    await freshFixtures();
    const { id } = (await (await fetch(`${url}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: fakeKey }) })).json()) as { id: string };
    const page = await (await fetch(`${url}/widget/?session_token=${id}`)).text();
    const formToken = /name="form_token" value="([^"]+)"/.exec(page)![1]!;
    const visit = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
      token: fc.oneof(fc.constant(id), fc.string({ maxLength: 60 }), fc.constant('x'.repeat(5_000))),
      result: fc.option(fc.oneof(fc.constantFrom('approved', 'rejected', 'manual-check'), fc.string({ maxLength: 20 }))),
      formToken: fc.option(fc.oneof(fc.constant(formToken), fc.string({ maxLength: 60 }))),
      type: fc.constantFrom('form', 'multipart', 'json', 'none'),
    });
    await fc.assert(
      fc.asyncProperty(visit, async (v) => {
        const before = await stored();
        const fields = { ...(v.result !== null ? { result: v.result } : {}), ...(v.formToken !== null ? { form_token: v.formToken } : {}) };
        const body =
          v.method === 'GET' || v.type === 'none'
            ? undefined
            : v.type === 'form'
              ? new URLSearchParams(fields)
              : v.type === 'json'
                ? JSON.stringify(fields)
                : Object.entries(fields).reduce((form, [name, value]) => (form.append(name, value), form), new FormData());
        const { status } = await send(`${url}/widget/?session_token=${encodeURIComponent(v.token)}`, { method: v.method, body });
        requestsSent++;
        if (![200, 400, 404, 405].includes(status)) expect([200, 400, 404, 405], `${v.method} ${status}`).toContain(status);
        const accepted = v.method === 'POST' && v.token === id && v.formToken === formToken && ['approved', 'rejected', 'manual-check'].includes(v.result ?? '') && v.type !== 'json' && v.type !== 'none';
        if (status !== 200 || (v.method === 'POST' && !accepted)) {
          const after = await stored();
          if (after !== before) expect(after).toBe(before);
        }
      }),
      { numRuns: runsPerOperation, seed: 42 },
    );
  });
});

describe('the fuzzing as a whole', () => {
  it('covers every operation of both interfaces and of the control API, and the applicant page', () => {
    expect(entries.filter((e) => e.api !== 'sandbox')).toHaveLength(53);
    // 7 control operations, and the console's 10
    expect(entries.filter((e) => e.api === 'sandbox')).toHaveLength(17);
    expect((entries.length + 1) * runsPerOperation).toBeGreaterThanOrEqual(10_000);
  });
});
