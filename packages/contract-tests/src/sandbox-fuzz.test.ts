// Schema-driven fuzzing of the sandbox: for every operation of the current and legacy interfaces and of
// the control API, requests made from a valid one by dropping a field, giving a field any JSON value (or a
// value over a limit: a long string, deep nesting), adding a field, or breaking the body itself; and the
// applicant page with any token, method and form. Every answer must be a 200 or a 400 whose body the
// operation's 400 schema allows (never a 5xx, never an undocumented code, never a hang), and a refused
// request must leave everything stored as it was. 170 requests an operation: over 10,000 in all.
import { readFileSync } from 'node:fs';
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

function requestFor(entry: Entry, change: Mutation): RequestInit {
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
    await fc.assert(
      fc.asyncProperty(mutation, async (change) => {
        const before = await stored();
        const response = await fetch(`${url}${path}`, { ...requestFor(entry, change), signal: AbortSignal.timeout(5_000) });
        requestsSent++;
        const text = await response.text();
        expect([200, 400], `${response.status} ${text}`).toContain(response.status);
        if (response.status === 400) {
          const pointer = ['paths', entry.path, 'post', 'responses', '400', 'content', 'application/json', 'schema'];
          expect(validatorOf(entry.api)(pointer, JSON.parse(text)), text).toEqual([]);
          expect(await stored()).toBe(before);
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
        const response = await fetch(`${url}/widget/?session_token=${encodeURIComponent(v.token)}`, { method: v.method, body, signal: AbortSignal.timeout(5_000) });
        requestsSent++;
        await response.text();
        expect([200, 400, 404, 405], `${v.method} ${response.status}`).toContain(response.status);
        if (response.status !== 200) expect(await stored()).toBe(before);
        const accepted = v.method === 'POST' && v.token === id && v.formToken === formToken && ['approved', 'rejected', 'manual-check'].includes(v.result ?? '') && v.type !== 'json' && v.type !== 'none';
        if (v.method === 'POST' && !accepted) expect(await stored()).toBe(before);
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
