// The reference's code samples (docs/code-samples.mjs): every operation of the three documents has a
// TypeScript and a curl sample; every TypeScript sample type-checks strictly (one tsc program for all of
// them) and runs, in one Node process, against Prism mocks of the current and legacy interfaces or an
// in-process sandbox with the demo company; every curl sample runs too, and fails on an HTTP error.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@idv-toolkit/client';
import { startMocks } from '@idv-toolkit/mock';
import { companiesFrom, createSandbox, type Sandbox } from '@idv-toolkit/sandbox';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allSamples, interfaces, readOperationTable, withCodeSamples } from '../code-samples.mjs';

type Sample = { lang: string; label: string; source: string };
type Entry = { api: Api; operationId: string; path: string; samples: Sample[] };
type Api = 'current' | 'legacy' | 'sandbox';
type Document = { paths: Record<string, Record<string, { operationId: string; 'x-codeSamples'?: Sample[] }>> };

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const apis: Api[] = ['current', 'legacy', 'sandbox'];
const bundle = (api: Api): Document => JSON.parse(readFileSync(require.resolve(`@idv-toolkit/openapi/${api}.json`), 'utf8'));
const table = (api: Api) => readOperationTable(join(root, `packages/types/src/generated/${api}-operations.ts`));
// The sandbox's reset (which forgets the company's sessions) runs after every other sample.
const entries: Entry[] = apis
  .flatMap((api): Entry[] => allSamples(api, bundle(api), table(api)))
  .sort((a, b) => Number(a.operationId === 'sandboxReset') - Number(b.operationId === 'sandboxReset'));
const demoKey = 'ck_test_sandbox_demo_key_0000';
// The sandbox document's example IDs, replaced by a session begun for each sample and a real watchlist entry.
const exampleSessionId = 'sess_0123456789abcdef';
const examplePersonId = 'wl-person-0001';
// The console operations' example IDs, replaced by a request the sandbox logged and a callback it sent.
const exampleRequestId = 'req_0001';
const exampleEventId = 'evt_0001';
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const moduleOf = (entry: Entry) => `${entry.api}-${entry.operationId}`;
const typescriptOf = (entry: Entry) => entry.samples.find((s) => s.label === 'TypeScript')!.source;
const curlOf = (entry: Entry) => entry.samples.find((s) => s.label === 'curl')!.source;

let dir = '';
let sandbox: Sandbox | undefined;
let receiver: Server | undefined;
let stopMocks: (() => Promise<void>) | undefined;
const diagnostics = new Map<string, string>();
const runs = new Map<string, string>();
const curls = new Map<string, { code: number; output: string }>();
const canary = 'canary-broken';

function exec(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string }): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, IDV_LOG: '', ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, output });
    });
    child.stdin.end(options.input ?? '');
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'code-samples-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  for (const entry of entries) writeFileSync(join(dir, `${moduleOf(entry)}.ts`), `${typescriptOf(entry)}export {};\n`);
  writeFileSync(join(dir, `${canary}.ts`), "import { createClient } from '@idv-toolkit/client';\nawait createClient({ companyKey: 'k', baseUrl: 'http://127.0.0.1:1' }).begin({ configId: 1 });\nexport {};\n");
  // The files the samples upload.
  for (const name of ['image.jpg', 'face1.jpg', 'face2.jpg']) writeFileSync(join(dir, name), jpeg);
  // The curl samples run as written; this makes an HTTP error status a failed command.
  writeFileSync(join(dir, '.curlrc'), 'fail-with-body\nsilent\nshow-error\nmax-time = 20\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'],
        strict: true, noUncheckedIndexedAccess: true, skipLibCheck: true, outDir: 'out',
      },
      include: ['*.ts'],
    }),
  );

  // The demo company with a callback receiver, so that resend-callback has a sent callback to resend.
  receiver = createServer((req, res) => req.resume().on('end', () => res.end()));
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
  sandbox = createSandbox({ rateLimit: 1_000_000, companies: companiesFrom({ companies: [{ name: 'Demo company', companyKey: demoKey, callbackUrl, callbackApiKey: 'cb_test_not_a_real_key' }] }) });
  // All three settle before a failure is thrown, so that tsc is not still writing into the folder that
  // afterAll removes. The contract project's mocks when it is in the run (vitest.mocks.global-setup.ts),
  // else a pair of this file's own: Prism's start takes tens of seconds on a loaded machine, up to 2 minutes here.
  const shared = inject('mockUrls');
  const [checked, mocked, listened] = await Promise.allSettled([
    exec(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: dir }),
    shared ? { urls: shared, stop: async () => {} } : startMocks({ ports: { current: 0, legacy: 0 }, log: () => {}, timeoutMs: 120_000 }),
    sandbox.listen(0, '127.0.0.1'),
  ]);
  if (mocked.status === 'fulfilled') stopMocks = mocked.value.stop;
  if (checked.status === 'rejected') throw checked.reason;
  if (mocked.status === 'rejected') throw mocked.reason;
  if (listened.status === 'rejected') throw listened.reason;
  const [check, mocks, sandboxUrl] = [checked.value, mocked.value, listened.value];
  for (const line of check.output.split('\n')) {
    const at = /^([^(]+)\.ts\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
    if (at) diagnostics.set(at[1]!, `${diagnostics.get(at[1]!) ?? ''}line ${at[2]}: ${at[4]}\n`);
  }

  // Sandbox samples act on a session of their own (with a video call, for set-video-call-status) and a
  // real watchlist entry; the mock and sandbox URLs of the samples point at this run's servers.
  const urls: Record<Api, string> = { current: mocks.urls.current, legacy: mocks.urls.legacy, sandbox: sandboxUrl };
  const idv = createClient({ companyKey: demoKey, baseUrl: sandboxUrl, rateLimit: false });
  const { result: hits } = await idv.searchScreeningPerson({ query: { fullName: 'a', scoreThreshold: 0 }, limit: 1 });
  const control = async (operation: string, body: object) =>
    (await (await fetch(`${sandboxUrl}/sandbox/${operation}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: demoKey, ...body }) })).json()) as { result: any[] };
  const sentEventId = async (sessionId: string) => {
    await control('complete-session', { sessionId, result: 'approved' });
    for (;;) {
      const attempt = (await control('callbacks', {})).result.find((entry) => entry.sessionId === sessionId);
      if (attempt) return attempt.eventId as string;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const localize = async (entry: Entry, text: string) => {
    let out = text;
    for (const api of apis) out = out.replaceAll(interfaces[api].baseUrl, urls[api]);
    if (entry.api === 'sandbox') {
      const { id } = await idv.begin({ configId: 'cfg-kyc-video-call' });
      out = out.replaceAll(exampleSessionId, id).replaceAll(examplePersonId, hits[0]!.personId!);
      if (out.includes(exampleRequestId)) out = out.replaceAll(exampleRequestId, (await control('list-requests', { limit: 1 })).result[0].id);
      if (out.includes(exampleEventId)) out = out.replaceAll(exampleEventId, await sentEventId(id));
    }
    return out;
  };
  const compiled = entries.filter((entry) => !diagnostics.has(moduleOf(entry)));
  for (const entry of compiled) {
    const file = join(dir, 'out', `${moduleOf(entry)}.js`);
    writeFileSync(file, await localize(entry, readFileSync(file, 'utf8')));
  }
  // One process imports every sample in turn and reports each failure.
  writeFileSync(
    join(dir, 'run-all.mjs'),
    `const failures = {};
for (const name of ${JSON.stringify(compiled.map(moduleOf))}) {
  try { await import('./out/' + name + '.js'); } catch (error) { failures[name] = String(error?.stack ?? error); }
}
process.stdout.write('\\n@@' + JSON.stringify(failures));
`,
  );
  const curl = async (entry: Entry) => exec('bash', ['-e'], { cwd: dir, env: { IDV_COMPANY_KEY: demoKey, CURL_HOME: dir, HOME: dir }, input: await localize(entry, curlOf(entry)) });
  const mockEntries = entries.filter((entry) => entry.api !== 'sandbox');
  const [all, ...mockCurls] = await Promise.all([exec(process.execPath, ['run-all.mjs'], { cwd: dir, env: { IDV_COMPANY_KEY: demoKey } }), ...mockEntries.map(curl)]);
  mockEntries.forEach((entry, i) => curls.set(moduleOf(entry), mockCurls[i]!));
  // After the TypeScript samples (whose reset forgot the sessions), one at a time, the reset last.
  for (const entry of entries.filter((e) => e.api === 'sandbox')) curls.set(moduleOf(entry), await curl(entry));
  const failures: Record<string, string> = JSON.parse(all.output.split('\n@@').pop() ?? '{}');
  for (const entry of compiled) runs.set(moduleOf(entry), failures[moduleOf(entry)] ?? '');
  if (all.code !== 0) for (const entry of compiled) runs.set(moduleOf(entry), `${runs.get(moduleOf(entry))}\nthe runner exited with ${all.code}: ${all.output.slice(-2000)}`);
}, 240_000);

afterAll(async () => {
  await Promise.all([sandbox?.close(), stopMocks?.()]);
  receiver?.closeAllConnections();
  receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the reference code samples', () => {
  it.each(apis)('cover every operation of the %s document, in TypeScript and curl, in the copy Redoc renders', (api) => {
    const document = withCodeSamples(api, bundle(api), table(api)) as Document;
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThan(5);
    for (const operation of operations) {
      expect(operation['x-codeSamples']?.map((s) => s.label), operation.operationId).toEqual(['TypeScript', 'curl']);
      for (const sample of operation['x-codeSamples']!) expect(sample.source.length, operation.operationId).toBeGreaterThan(40);
    }
    // The sources stay as they are: samples go into the copy only.
    expect(JSON.stringify(bundle(api))).not.toContain('x-codeSamples');
  });

  it('fails the build for an operation the client does not have', () => {
    const document = bundle('current');
    const partial = Object.fromEntries(Object.entries(table('current')).slice(1));
    expect(() => allSamples('current', document, partial)).toThrow('not in the client');
  });

  it('are type-checked: a broken one is caught', () => {
    expect(diagnostics.get(canary)).toContain('TS2322');
  });

  it.each(entries.map((e) => [`${e.api} ${e.operationId}`, e] as const))('%s: the TypeScript sample type-checks strictly and runs', (_name, entry) => {
    expect(diagnostics.get(moduleOf(entry)) ?? '').toBe('');
    expect(runs.get(moduleOf(entry))).toBe('');
  });

  it.each(entries.map((e) => [`${e.api} ${e.operationId}`, e] as const))('%s: the curl sample runs and gets a success', (_name, entry) => {
    const run = curls.get(moduleOf(entry))!;
    expect(run.code, run.output).toBe(0);
  });
});
