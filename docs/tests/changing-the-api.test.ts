// The guide "Adding an operation" of docs/changing-the-api.md, walked through on a scratch copy of the
// repository's descriptions (a temporary folder; openapi/ is never touched): an operation added as the
// guide says reaches every artifact: the bundle and the lint, the generated types and operation table, the
// compiled client's method, the mock's answer, the reference page and the search index, and the sandbox,
// which answers it with its 200 example marked as not emulated.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startMocks } from '@idv-toolkit/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOperation as saveOperation, countGroupsOperation } from '../../scripts/fixtures/count-groups.mjs';
import { scratchRepository } from '../../scripts/fixtures/scratch-repository.mjs';
import { specChecker } from '../../scripts/spec-check.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
// The sources that the walk-through builds (the descriptions, the types package, the client, the docs
// build, the compile script) and the sandbox as built; the workspace packages link to the copy's folders.
const scratch = scratchRepository({
  prefix: 'idv-changing-the-api-',
  paths: ['openapi', 'packages/types', 'packages/client', 'packages/sandbox', 'packages/sandbox/dist', 'docs', 'scripts/compile.mjs', 'tsconfig.base.json'],
});
const work = scratch.dir;
const fakeKey = 'ck_test_sandbox_demo_key_0000';
const run = (cwd: string, ...args: string[]) => promisify(execFile)(process.execPath, args, { cwd: join(work, cwd), env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' } });

// What the guide's "An operation" asks for (scripts/fixtures/count-groups.mjs).
const operation = countGroupsOperation();

/** The guide's steps 1 and 2 in the copy: the files, the `paths:` entry, then bundle, generate and build. */
async function addOperation() {
  saveOperation(join(work, 'openapi/current'), operation);
  expect(readFileSync(join(work, 'openapi/current/openapi.yaml'), 'utf8')).toContain('/count-groups:');
  await run('openapi', 'bundle.mjs');
  await run('packages/types', 'scripts/generate.mjs');
  await Promise.all([run('packages/types', '../../scripts/compile.mjs'), run('packages/client', '../../scripts/compile.mjs')]);
  await run('docs', 'build.mjs', '--root', work);
}

let mocks: Awaited<ReturnType<typeof startMocks>> | undefined;
let sandbox: { listen(port?: number, host?: string): Promise<string>; close(): Promise<void> } | undefined;
let sandboxUrl = '';

beforeAll(async () => {
  await addOperation();
  const bundles = { current: join(work, 'openapi/dist/current.json'), legacy: join(work, 'openapi/dist/legacy.json') };
  mocks = await startMocks({ ports: { current: 0, legacy: 0 }, bundles, log: () => {}, timeoutMs: 120_000 });
  const { createSandbox } = await import(pathToFileURL(join(work, 'packages/sandbox/dist/server.js')).href);
  sandbox = createSandbox();
  sandboxUrl = await sandbox!.listen(0, '127.0.0.1');
}, 240_000);
afterAll(async () => {
  await Promise.all([mocks?.stop(), sandbox?.close()]);
  scratch.remove();
});

describe('adding an operation as docs/changing-the-api.md says', () => {
  it('lints with no problem and is in the bundle', async () => {
    const { bundles, errors, warnings } = await specChecker({ configPath: join(work, 'openapi/redocly.yaml'), cwd: work }).check();
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(bundles!.current.paths['/count-groups'].post.operationId).toBe('countGroups');
    expect(JSON.parse(readFileSync(join(work, 'openapi/dist/current.json'), 'utf8')).paths['/count-groups']).toBeDefined();
  }, 120_000);

  it('is in the generated types and the operation table, with no hand edit', () => {
    const generated = join(work, 'packages/types/src/generated');
    expect(readFileSync(join(generated, 'current.ts'), 'utf8')).toMatch(/"\/count-groups": \{[\s\S]*?post: operations\["countGroups"\]/);
    expect(readFileSync(join(generated, 'current.ts'), 'utf8')).toMatch(/export type CountGroupsResponse = components\['schemas'\]\['CountGroupsResponse'\]/);
    expect(readFileSync(join(generated, 'current-operations.ts'), 'utf8')).toMatch(/"countGroups": \{\s*"path": "\/count-groups",\s*"method": "POST",\s*"idempotent": true/);
  });

  it('is a method of the compiled client, which the mock answers with the example', async () => {
    const { createClient } = await import(pathToFileURL(join(work, 'packages/client/dist/index.js')).href);
    const idv = createClient({ companyKey: fakeKey, baseUrl: mocks!.urls.current, rateLimit: false });
    expect(typeof idv.countGroups).toBe('function');
    expect(await idv.countGroups()).toEqual({ count: 3 });
  });

  it('is listed by the reference page, with its code samples, and found by the search', () => {
    const page = readFileSync(join(work, 'docs/dist/current.html'), 'utf8');
    const definition = JSON.parse(/const __redoc_definition = (.*);\n/.exec(page)![1]!.replaceAll('\\u003c', '<'));
    const operation = definition.paths['/count-groups'].post;
    expect(operation.summary).toBe("Count the company's user groups");
    expect(operation['x-codeSamples'].map((sample: { lang: string }) => sample.lang)).toEqual(['TypeScript', 'curl']);
    expect(operation['x-codeSamples'][0].source).toContain('await idv.countGroups(');
    const index = JSON.parse(readFileSync(join(work, 'docs/dist/search-index.json'), 'utf8'));
    expect(index).toContainEqual(expect.objectContaining({ url: 'current.html#operation/countGroups', title: "Count the company's user groups" }));
  });

  it('is answered by the sandbox with its 200 example, marked as not emulated, after checking the request', async () => {
    const call = (body: object) => fetch(`${sandboxUrl}/count-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await call({ companyKey: fakeKey });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-sandbox-emulated')).toBe('false');
    expect(await answer.json()).toEqual({ count: 3 });
    const refused = await call({ companyKey: fakeKey, nameContains: 5 });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-sandbox-emulated')).toBeNull();
  });

  it('left openapi/ of the repository as it was', () => {
    expect(existsSync(join(repo, 'openapi/current/paths/count-groups.yaml'))).toBe(false);
    expect(readFileSync(join(repo, 'openapi/current/openapi.yaml'), 'utf8')).not.toContain('/count-groups');
    expect(dirname(join(work, 'openapi'))).toBe(work);
  });
});
