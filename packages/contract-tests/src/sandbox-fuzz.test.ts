// Schema-driven fuzzing of the sandbox: for every operation, requests made from a valid one by dropping
// a field, giving a field any JSON value, adding a field, or breaking the body itself. Every answer must
// be a 200 or a 400 whose body the operation's 400 schema allows (never a 5xx, never a hang), and a
// refused request must leave everything stored as it was.
import fc from 'fast-check';
import { companiesFrom, createSandbox, type Sandbox } from '@idv-toolkit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, operations, type OperationEntry } from './documents.js';
import { validators } from './expect-success.js';
import { fakeKey } from './fake-key.js';
import { makeFixtures, withFixtures } from './sandbox-fixtures.js';
import { valueOf } from './request-values.js';

let sandbox: Sandbox;
let url: string;
let fixtures: Awaited<ReturnType<typeof makeFixtures>>;
beforeAll(async () => {
  sandbox = createSandbox({ rateLimit: 1_000_000, companies: companiesFrom({ companies: [{ companyKey: fakeKey }] }) });
  url = await sandbox.listen(0, '127.0.0.1');
  fixtures = await makeFixtures(url);
});
afterAll(() => sandbox?.close());


function stored(): string {
  const { sessions, blacklist, users, groups, monitoring, files } = sandbox.state;
  return JSON.stringify([sessions, blacklist, users, groups, monitoring, files].map((c) => c.list(fakeKey)));
}

function validBody({ api, operation }: OperationEntry): Record<string, unknown> {
  const [, media] = Object.entries(operation.requestBody!.content)[0]!;
  const body = withFixtures(valueOf(documents[api], media.schema, false) as Record<string, unknown>, fixtures, operation.operationId);
  return { ...body, [api === 'current' ? 'companyKey' : 'company_key']: fakeKey };
}

type Mutation = { kind: 'drop' | 'set' | 'add'; index: number; value: unknown } | { kind: 'raw'; text: string; type: string };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('drop' as const, 'set' as const, 'add' as const), index: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ kind: fc.constant('raw' as const), text: fc.string({ maxLength: 40 }), type: fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', '') }),
);

function requestFor(entry: OperationEntry, change: Mutation): RequestInit {
  if (change.kind === 'raw') return { method: 'POST', headers: change.type ? { 'content-type': change.type } : {}, body: change.text };
  const body: Record<string, unknown> = { ...validBody(entry) };
  const names = Object.keys(body);
  const name = names[change.index % names.length]!;
  if (change.kind === 'drop') delete body[name];
  else if (change.kind === 'set') body[name] = change.value;
  else body[`extra${change.index}`] = change.value;
  if (entry.api === 'current' && entry.path !== '/compare-faces') return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const form = new FormData();
  for (const [field, value] of Object.entries(body)) {
    if (value instanceof Blob) form.append(field, value, field);
    else if (value !== undefined) form.append(field, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return { method: 'POST', body: form };
}

describe.each(operations.map((entry) => [`${entry.api} ${entry.path}`, entry] as const))('fuzzing %s', (_name, entry) => {
  it('gets only 200 or a documented 400, and a refusal changes nothing', async () => {
    const path = entry.path.replace('{registry}', 'companies-house');
    await fc.assert(
      fc.asyncProperty(mutation, async (change) => {
        const before = stored();
        const response = await fetch(`${url}${path}`, { ...requestFor(entry, change), signal: AbortSignal.timeout(5_000) });
        const text = await response.text();
        expect([200, 400], `${response.status} ${text}`).toContain(response.status);
        if (response.status === 400) {
          const pointer = ['paths', entry.path, 'post', 'responses', '400', 'content', 'application/json', 'schema'];
          expect(validators[entry.api](pointer, JSON.parse(text)), text).toEqual([]);
          expect(stored()).toBe(before);
        }
      }),
      { numRuns: 25, seed: 42 },
    );
  });
});
