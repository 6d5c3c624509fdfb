// The guide "Adding an operation" of docs/changing-the-api.md, walked through on a scratch copy of the
// repository's descriptions (a temporary folder; openapi/ is never touched): an operation added as the
// guide says reaches every artifact: the bundle and the lint, the generated types and operation table, the
// compiled client's method, the mock's answer, the reference page and the search index, and the sandbox,
// which answers it with its 200 example marked as not emulated.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startMocks } from '@idv-toolkit/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specChecker } from '../../scripts/spec-check.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'idv-changing-the-api-'));
const fakeKey = 'ck_test_sandbox_demo_key_0000';
const run = (cwd: string, ...args: string[]) => promisify(execFile)(process.execPath, args, { cwd: join(work, cwd), env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' } });

// What the guide's "An operation" asks for: a path file with operationId, one tag, a sentence-case summary,
// x-idempotent, <OperationId>Request / Response / Error schemas, the 400 codes each with a named example,
// the 529 $ref and a 200 example; and its entry under `paths:` of openapi/current/openapi.yaml.
const newFiles: Record<string, string> = {
  'openapi/current/paths/count-groups.yaml': `post:
  operationId: countGroups
  tags: [Groups and users]
  summary: Count the company's user groups
  description: How many groups of console users the company has.
  x-idempotent: true
  requestBody:
    required: true
    content:
      application/json:
        schema:
          $ref: ../components/schemas/CountGroupsRequest.yaml
        examples:
          count-groups:
            summary: Count the groups
            value:
              companyKey: ck_test_not_a_real_key_0000
  responses:
    '200':
      description: The number of groups.
      content:
        application/json:
          schema:
            $ref: ../components/schemas/CountGroupsResponse.yaml
          examples:
            three-groups:
              summary: Three groups
              value:
                count: 3
    '400':
      description: The groups could not be counted.
      content:
        application/json:
          schema:
            $ref: ../components/schemas/CountGroupsError.yaml
          examples:
            not-found:
              summary: The object asked for does not exist
              value:
                argumentError: not-found
    '529':
      $ref: ../../common/components/responses/TooManyRequests.yaml
`,
  'openapi/current/components/schemas/CountGroupsRequest.yaml': `title: CountGroupsRequest
type: object
required: [companyKey]
properties:
  companyKey:
    $ref: ../../../common/components/schemas/CompanyKey.yaml
  nameContains:
    type: string
    description: Counts only the groups whose name contains this text.
    example: team
`,
  'openapi/current/components/schemas/CountGroupsResponse.yaml': `title: CountGroupsResponse
type: object
required: [count]
properties:
  count:
    type: integer
    minimum: 0
    description: How many groups the company has.
    example: 3
`,
  'openapi/current/components/schemas/CountGroupsError.yaml': `title: CountGroupsError
type: object
required: [argumentError]
properties:
  argumentError:
    type: string
    description: '\`not-found\`: the object asked for does not exist.'
    enum: [not-found]
    example: not-found
`,
};

/** The packages of the scratch repository: copies, each with its own folder that node_modules links to. */
const workspaces = { openapi: 'openapi', types: 'packages/types', client: 'packages/client', sandbox: 'packages/sandbox', docs: 'docs' };
const skipped = /(^|\/)(node_modules|\.turbo|dist|\.compile-\d+)$/;

/**
 * Copies the sources that the walk-through builds (the descriptions, the types package, the client, the
 * docs build, the compile script), the sandbox as built, and links node_modules to this checkout's, but for
 * the workspace packages, which link to the copy's own folders: what runs in the copy reads the copy.
 */
function scratchRepository() {
  for (const dir of Object.values(workspaces)) cpSync(join(repo, dir), join(work, dir), { recursive: true, filter: (source) => !skipped.test(source) });
  cpSync(join(repo, 'packages/sandbox/dist'), join(work, 'packages/sandbox/dist'), { recursive: true });
  for (const file of ['scripts/compile.mjs', 'tsconfig.base.json']) cpSync(join(repo, file), join(work, file));
  mkdirSync(join(work, 'node_modules/@idv-toolkit'), { recursive: true });
  for (const entry of readdirSync(join(repo, 'node_modules'))) {
    if (entry !== '@idv-toolkit' && entry !== '.vite') symlinkSync(join(repo, 'node_modules', entry), join(work, 'node_modules', entry));
  }
  for (const [name, dir] of Object.entries(workspaces)) {
    symlinkSync(join(work, dir), join(work, 'node_modules/@idv-toolkit', name));
    if (existsSync(join(repo, dir, 'node_modules'))) symlinkSync(join(repo, dir, 'node_modules'), join(work, dir, 'node_modules'));
  }
  for (const name of readdirSync(join(repo, 'node_modules/@idv-toolkit'))) {
    if (!(name in workspaces)) symlinkSync(join(repo, 'node_modules/@idv-toolkit', name), join(work, 'node_modules/@idv-toolkit', name));
  }
}

/** The guide's steps 1 and 2 in the copy: the files, the `paths:` entry, then bundle, generate and build. */
async function addOperation() {
  for (const [file, text] of Object.entries(newFiles)) writeFileSync(join(work, file), text);
  const root = join(work, 'openapi/current/openapi.yaml');
  const text = readFileSync(root, 'utf8');
  writeFileSync(root, text.replace(/^( {2}\/list-groups:\n {4}\$ref: paths\/list-groups\.yaml\n)/m, '$1  /count-groups:\n    $ref: paths/count-groups.yaml\n'));
  expect(readFileSync(root, 'utf8')).toContain('/count-groups:');
  await run('openapi', 'bundle.mjs');
  await run('packages/types', 'scripts/generate.mjs');
  await Promise.all([run('packages/types', '../../scripts/compile.mjs'), run('packages/client', '../../scripts/compile.mjs')]);
  await run('docs', 'build.mjs', '--root', work);
}

let mocks: Awaited<ReturnType<typeof startMocks>> | undefined;
let sandbox: { listen(port?: number, host?: string): Promise<string>; close(): Promise<void> } | undefined;
let sandboxUrl = '';

beforeAll(async () => {
  scratchRepository();
  await addOperation();
  const bundles = { current: join(work, 'openapi/dist/current.json'), legacy: join(work, 'openapi/dist/legacy.json') };
  mocks = await startMocks({ ports: { current: 0, legacy: 0 }, bundles, log: () => {}, timeoutMs: 120_000 });
  const { createSandbox } = await import(pathToFileURL(join(work, 'packages/sandbox/dist/server.js')).href);
  sandbox = createSandbox();
  sandboxUrl = await sandbox!.listen(0, '127.0.0.1');
}, 240_000);
afterAll(async () => {
  await Promise.all([mocks?.stop(), sandbox?.close()]);
  rmSync(work, { recursive: true, force: true });
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
