// `npm start` and `npm run dev`: their flags (read before anything is built), the ports they choose, and
// mocks that survive the request that used to end Prism (issue 14, W1).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOperation, countGroupsOperation } from './fixtures/count-groups.mjs';
import { scratchRepository } from './fixtures/scratch-repository.mjs';
import { portOffsets, portsFrom, sandboxFrom, serveAll, serveProgram } from './serve-all.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
type Ran = { status: number | null; stdout: string; stderr: string };
const run = (script: string, ...args: string[]) =>
  new Promise<Ran>((resolve) => {
    execFile(process.execPath, [`scripts/${script}`, ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
const flags = ['--host', '--port-base', '--docs-port', '--current-port', '--legacy-port', '--sandbox-port', '--no-standby', '--memory', '--data', '--database', '--admin-token', '--quiet', '--help'];

const helpFlags = ['--help', '-h'];
const wrongFlags: [string[], string][] = [
  [['--port-bas', '5000'], "error: unknown option '--port-bas' (Did you mean --port-base?)"],
  [['--port-base', '65516'], "error: option '--port-base <number>' argument '65516' is invalid. It must be a whole number from 0 to 65515."],
  [['--sandbox-port', 'x'], "error: option '--sandbox-port <number>' argument 'x' is invalid. It must be a whole number from 0 to 65535."],
  [['--host'], "error: option '--host <address>' argument missing"],
];
// Each command line is its own Node process, mostly waiting to start: all of them run at once, from here.
const ran = new Map<string, Promise<Ran>>();
const ranWith = (script: string, args: string[]) => ran.get(JSON.stringify([script, args]))!;
beforeAll(() => {
  for (const script of ['start.mjs', 'dev.mjs']) for (const args of [...helpFlags.map((flag) => [flag]), ...wrongFlags.map(([args]) => args)]) ran.set(JSON.stringify([script, args]), run(script, ...args));
});

describe.each([
  ['start.mjs', 'npm start --'],
  ['dev.mjs', 'npm run dev --'],
])('%s, its flags', (script, name) => {
  it.each(helpFlags)('%s prints the usage with every flag and what it does', async (flag) => {
    const { status, stdout, stderr } = await ranWith(script, [flag]);
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.startsWith(`Usage: ${name} [options]`)).toBe(true);
    for (const known of flags) expect(stdout).toMatch(new RegExp(`^  (-h, )?${known}\\b.* \\w+`, 'm'));
  });

  it.each(wrongFlags)('%j prints one line and the usage, exit 2, before building anything', async (args, line) => {
    const { status, stdout, stderr } = await ranWith(script, args);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toBe(line);
    expect(stderr).toContain(`Usage: ${name} [options]`);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

describe('the ports of npm start', () => {
  const parse = (...args: string[]) => portsFrom(serveProgram('npm start --', '').parse(args, { from: 'user' }).opts());

  it('are 4000, 4010, 4011 and 4020 by default, offsets from --port-base, or each its own flag', () => {
    expect(parse()).toEqual({ docs: 4000, current: 4010, legacy: 4011, sandbox: 4020 });
    expect(parse('--port-base', '5000', '--legacy-port', '7000')).toEqual({ docs: 5000, current: 5010, legacy: 7000, sandbox: 5020 });
    expect(parse('--port-base', '0')).toEqual({ docs: 0, current: 0, legacy: 0, sandbox: 0 });
  });
});

/** A base port whose four service ports are all free on 127.0.0.1 now. */
async function freeBase(): Promise<number> {
  const isFree = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    if ((await Promise.all(Object.values(portOffsets).map((offset) => isFree(base + offset)))).every(Boolean)) return base;
  }
}

function rawStatus(url: string, head: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    socket.write(`${head}\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
  });
}

// One start for all of these (each start is two Prisms, the sandbox, PGlite and the docs server), with the
// sandbox's data in PGlite as npm start keeps it by default (in .sandbox-data/ there).
describe('what npm start serves, and its sandbox across a reload', () => {
  let served: Awaited<ReturnType<typeof serveAll>> | undefined;
  let base: number;
  const data = mkdtempSync(join(tmpdir(), 'serve-all-data-'));
  const written: string[] = [];
  const printed = () => written.join('');
  const write = process.stdout.write.bind(process.stdout);
  const log = console.log;

  beforeAll(async () => {
    base = await freeBase();
    process.stdout.write = ((text: string) => (written.push(String(text)), true)) as typeof process.stdout.write;
    console.log = (line: string) => written.push(`${line}\n`);
    served = await serveAll({ host: '127.0.0.1', ports: portsFrom({ portBase: base }), standby: false, sandbox: sandboxFrom({ data }) });
    served.printUrls();
  }, 120_000);
  afterAll(async () => {
    process.stdout.write = write;
    console.log = log;
    await served?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  it('listens on the ports asked for, and prints them', () => {
    for (const [name, offset] of Object.entries(portOffsets)) expect(printed(), name).toContain(`http://127.0.0.1:${base + offset}`);
  });

  it('prints the sandbox console\'s URL, where the console answers with its sign-in page', async () => {
    const url = `http://127.0.0.1:${base + portOffsets.sandbox}/console/`;
    expect(printed()).toContain(url);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Company key or admin token');
  });

  it('keeps both mocks up through malformed request targets (W1, W9)', async () => {
    const { current, legacy } = served!.mocks.urls;
    for (const head of ['POST /check-in-% HTTP/1.1', 'POST /check-in-%E2%82 HTTP/1.1', 'GET //[ HTTP/1.1']) {
      expect(await rawStatus(current, head), head).toBe(400);
      expect(await rawStatus(legacy, head), head).toBe(400);
    }
    const groups = await fetch(`${current}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":"ck_test_not_a_real_key_0000"}' });
    expect(groups.status).toBe(200);
  });

  it('keeps its PGlite data through a reload (npm run dev), logs one line per request, and POST /sandbox/reset still empties the company', async () => {
    const key = 'ck_test_sandbox_demo_key_0000';
    const call = (path: string, body: Record<string, unknown>) =>
      fetch(served!.sandboxUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: key, ...body }) }).then((r) => r.json() as Promise<any>);
    const added = await call('/add-blacklist-record', { query: { reason: 'kept', documentNumber: 'DEV-1' } });
    await served!.reload();
    expect((await call('/list-blacklist-records', { query: {} })).result.data).toEqual([{ id: added.result, reason: 'kept', documentNumber: 'DEV-1' }]);
    expect(await call('/sandbox/reset', {})).toEqual({ result: true });
    expect((await call('/list-blacklist-records', { query: {} })).result.total).toBe(0);
    // Lines are written once per turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = printed();
    expect(text).toContain(`Sandbox data                     PGlite in ${data}`);
    expect(text).toMatch(/^sandbox {2}POST \/add-blacklist-record addBlacklistRecord 200 [\d.]+ms "Demo company"$/m);
    expect(text.split('\n').filter((line) => line.startsWith('sandbox  ')).join('\n')).not.toContain(key);
  }, 180_000);
});

describe('npm run dev after a save that adds an operation (a scratch copy of the repository)', () => {
  // What serveAll runs on: the copy's scripts, mock, built sandbox and descriptions; the copy's bundles are
  // what its sandbox and mocks read, so the checkout's openapi/ is never touched.
  const scratch = scratchRepository({
    prefix: 'idv-serve-all-',
    paths: ['package.json', 'scripts', 'packages/mock', 'packages/sandbox/package.json', 'packages/sandbox/dist', 'openapi', 'openapi/dist'],
  });
  const operation = countGroupsOperation();
  const key = 'ck_test_sandbox_demo_key_0000';
  let served: Awaited<ReturnType<typeof serveAll>> | undefined;
  const post = (url: string, path: string, body: Record<string, unknown>) => fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: key, ...body }) });

  beforeAll(async () => {
    const copied: { serveAll: typeof serveAll } = await import(pathToFileURL(join(scratch.dir, 'scripts/serve-all.mjs')).href);
    served = await copied.serveAll({ host: '127.0.0.1', ports: portsFrom({ portBase: await freeBase() }), standby: false, sandbox: sandboxFrom({ memory: true, quiet: true }) });
  }, 120_000);
  afterAll(async () => {
    await served?.stop();
    scratch.remove();
  });

  it('the sandbox answers the new operation after the reload, checks its request, and keeps its in-memory data; the mock answers it too', async () => {
    const sandboxUrl = served!.sandboxUrl;
    const added = (await (await post(sandboxUrl, '/add-blacklist-record', { query: { reason: 'kept in memory', documentNumber: 'DEV-2' } })).json()) as { result: string };
    expect((await post(sandboxUrl, operation.path, {})).status).toBe(404);

    addOperation(join(scratch.dir, 'openapi/current'), operation);
    await promisify(execFile)(process.execPath, ['bundle.mjs'], { cwd: join(scratch.dir, 'openapi'), env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' } });
    await served!.reload();

    const answer = await post(sandboxUrl, operation.path, {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-sandbox-emulated')).toBe('false');
    expect(await answer.json()).toEqual(operation.example);
    // The request check of the new operation came with its route: a field of the wrong type is refused.
    const refused = await post(sandboxUrl, operation.path, { nameContains: 5 });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ argumentError: 'not-found' });
    const records = (await (await post(sandboxUrl, '/list-blacklist-records', { query: {} })).json()) as { result: { data: unknown[] } };
    expect(records.result.data).toEqual([{ id: added.result, reason: 'kept in memory', documentNumber: 'DEV-2' }]);

    const mocked = await post(served!.mocks.urls.current, operation.path, {});
    expect(mocked.status).toBe(200);
    expect(await mocked.json()).toEqual(operation.example);
  }, 120_000);
});
