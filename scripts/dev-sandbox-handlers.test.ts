// `npm run dev` picks up the sandbox's handler code (issue 16): which modules a reload loads again
// (planReload), the reload in a real Node process on a small package laid out like the sandbox's dist/, and
// dev itself on a scratch copy of the repository: a handler edited there is answered with, the data stays.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planReload, readModules } from './dev-sandbox-handlers.mjs';
import { scratchRepository } from './fixtures/scratch-repository.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'idv-dev-sandbox-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes `files` (path under dist/ -> text) into the package folder `dir`. */
function writeDist(dir: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, 'dist', path)), { recursive: true });
    writeFileSync(join(dir, 'dist', path), text);
  }
}

// A package shaped like the sandbox's: the server answers with the handlers' object, tells a refusal by
// the class of errors.js, and uses util.js itself too; the handlers use util.js and greeting.js.
const fakePackage = {
  'index.js': "export { answer } from './server.js';\n",
  'server.js': [
    "import { allHandlers } from './handlers/index.js';",
    "import { ApiError } from './errors.js';",
    "import { shout } from './util.js';",
    'export function answer(operation) {',
    "  if (!allHandlers[operation]) return 'no such operation';",
    '  try { return shout(allHandlers[operation]()); } catch (error) { if (error instanceof ApiError) return `refused: ${error.code}`; throw error; }',
    '}',
  ].join('\n'),
  'errors.js': 'export class ApiError extends Error { constructor(code) { super(code); this.code = code; } }\n',
  'util.js': 'export const shout = (text) => text;\n',
  'greeting.js': "export const greeting = () => 'hello';\n",
  'handlers/index.js': "import { some } from './some.js';\nexport const allHandlers = { ...some };\nexport const readOnlyOperations = new Set(['greet']);\n",
  'handlers/some.js': "import { ApiError } from '../errors.js';\nimport { greeting } from '../greeting.js';\nexport const some = { greet: () => greeting(), refuse: () => { throw new ApiError('nope'); } };\n",
};

describe('planReload', () => {
  it('loads again what changed in the handlers\' graph and what imports it; keeps the server\'s classes; names what the server keeps', () => {
    const dir = mkdtempSync(join(tmp, 'plan-'));
    writeDist(dir, fakePackage);
    const loaded = readModules(join(dir, 'dist'));
    expect(planReload(loaded, loaded)).toEqual({ changed: [], fresh: [], pinned: ['errors.js'], needRestart: [] });

    writeDist(dir, { 'greeting.js': "export const greeting = () => 'bonjour';\n" });
    expect(planReload(loaded, readModules(join(dir, 'dist')))).toMatchObject({ changed: ['greeting.js'], fresh: ['greeting.js', 'handlers/index.js', 'handlers/some.js'], needRestart: [] });

    // The server's own module: loaded again for the handlers only if they use it; the server keeps its copy.
    writeDist(dir, { 'util.js': 'export const shout = (text) => text.toUpperCase();\n', 'errors.js': 'export class ApiError extends Error { constructor(code) { super(`${code}!`); this.code = code; } }\n' });
    const plan = planReload(loaded, readModules(join(dir, 'dist')));
    expect(plan.changed).toEqual(['errors.js', 'greeting.js', 'util.js']);
    expect(plan.fresh).toEqual(['greeting.js', 'handlers/index.js', 'handlers/some.js']);
    expect(plan.needRestart).toEqual(['errors.js', 'util.js']);
  });

  it('reads static, re-exported and dynamic relative imports, not packages', () => {
    const dir = mkdtempSync(join(tmp, 'imports-'));
    writeDist(dir, { 'a.js': "import { x } from './b.js';\nexport * from \"./sub/../c.js\";\nconst d = await import('./sub/d.js');\nimport 'ajv';\nimport './e.js';\n" });
    expect(readModules(join(dir, 'dist')).get('a.js')!.imports).toEqual(['b.js', 'c.js', 'sub/d.js', 'e.js']);
  });
});

describe('handlerReloader, in a Node process that loaded the package', () => {
  // The reloads run in a plain Node process (module URLs and their cache as dev has them), reporting JSON.
  const driver = (dir: string) => `
    import { writeFileSync } from 'node:fs';
    import { join } from 'node:path';
    const dir = ${JSON.stringify(dir)};
    const { handlerReloader } = await import(${JSON.stringify(new URL('./dev-sandbox-handlers.mjs', import.meta.url).href)});
    const { answer } = await import(join(dir, 'dist/index.js'));
    const live = await import(join(dir, 'dist/handlers/index.js'));
    const reloader = await handlerReloader(dir);
    const seen = [];
    const look = (plan) => seen.push({ greet: answer('greet'), refuse: answer('refuse'), operations: Object.keys(live.allHandlers).sort(), readOnly: [...live.readOnlyOperations], generation: plan?.generation, needRestart: plan?.needRestart });
    look();
    writeFileSync(join(dir, 'dist/greeting.js'), "export const greeting = () => 'bonjour';\\n");
    look(await reloader.reload());
    writeFileSync(join(dir, 'dist/handlers/index.js'), "import { some } from './some.js';\\nexport const allHandlers = { greet: some.greet, wave: () => 'wave' };\\nexport const readOnlyOperations = new Set(['wave']);\\n");
    look(await reloader.reload());
    writeFileSync(join(dir, 'dist/util.js'), 'export const shout = (text) => text.toUpperCase();\\n');
    look(await reloader.reload());
    console.log(JSON.stringify(seen));
  `;

  it('answers with the new handlers (added, changed, removed), their refusals still told by the server, and names the server\'s own code', () => {
    const dir = mkdtempSync(join(tmp, 'reload-'));
    writeDist(dir, { ...fakePackage, 'package.json': '{"type":"module"}' });
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', driver(dir)], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    const [before, greeting, operations, server] = JSON.parse(run.stdout);
    expect(before).toMatchObject({ greet: 'hello', refuse: 'refused: nope', operations: ['greet', 'refuse'], readOnly: ['greet'] });
    // A refusal thrown by the new code is still the server's ApiError: a refusal, not a crash.
    expect(greeting).toMatchObject({ greet: 'bonjour', refuse: 'refused: nope', generation: 1, needRestart: [] });
    expect(operations).toMatchObject({ greet: 'bonjour', refuse: 'no such operation', operations: ['greet', 'wave'], readOnly: ['wave'], generation: 2 });
    // util.js is the server's: its old code stays in use, and dev is told so.
    expect(server).toMatchObject({ greet: 'bonjour', needRestart: ['util.js'] });
  });
});

describe('handlerReloader, with a sandbox that offers replaceHandlers', () => {
  // The package above with the applicant page's finish in handlers/control.js, which the server imports too.
  const withControl = {
    ...fakePackage,
    'handlers/control.js': "export const completeSession = () => 'finished';\nexport const control = { finish: () => completeSession() };\n",
    'handlers/index.js': "import { some } from './some.js';\nimport { control } from './control.js';\nexport const allHandlers = { ...some, ...control };\nexport const readOnlyOperations = new Set(['greet']);\n",
  };
  const driver = (dir: string) => `
    import { writeFileSync } from 'node:fs';
    import { join } from 'node:path';
    const dir = ${JSON.stringify(dir)};
    const { handlerReloader } = await import(${JSON.stringify(new URL('./dev-sandbox-handlers.mjs', import.meta.url).href)});
    const live = await import(join(dir, 'dist/handlers/index.js'));
    const given = [];
    const sandbox = { replaceHandlers: (handlers, code) => given.push({ handlers, code }) };
    const reloader = await handlerReloader(dir, { sandbox });
    const seen = [];
    const look = () => {
      const last = given.at(-1);
      seen.push({ calls: given.length, greet: last?.handlers.greet(), finish: last?.handlers.finish(), completeSession: last?.code.completeSession?.(), readOnly: last && [...last.code.readOnlyOperations], loaded: live.allHandlers.greet() });
    };
    writeFileSync(join(dir, 'dist/greeting.js'), "export const greeting = () => 'bonjour';\\n");
    await reloader.reload();
    look();
    writeFileSync(join(dir, 'dist/handlers/control.js'), "export const completeSession = () => 'finished anew';\\nexport const control = { finish: () => completeSession() };\\n");
    await reloader.reload();
    look();
    console.log(JSON.stringify(seen));
  `;

  it("hands it the new handlers, read-only operations and applicant page's completeSession, and leaves the loaded package's objects alone", () => {
    const dir = mkdtempSync(join(tmp, 'replace-'));
    writeDist(dir, withControl);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', driver(dir)], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    const [greeting, control] = JSON.parse(run.stdout);
    expect(greeting).toEqual({ calls: 1, greet: 'bonjour', finish: 'finished', completeSession: 'finished', readOnly: ['greet'], loaded: 'hello' });
    expect(control).toEqual({ calls: 2, greet: 'bonjour', finish: 'finished anew', completeSession: 'finished anew', readOnly: ['greet'], loaded: 'hello' });
  });
});

describe('npm run dev, a sandbox handler edited while it runs (a scratch copy of the repository)', () => {
  const companyKey = 'ck_test_sandbox_demo_key_0000';
  let scratch: { dir: string; remove(): void };
  let dev: ReturnType<typeof spawn>;
  let output = '';
  let sandbox = '';
  const post = async (path: string, body: unknown) => {
    const answer = await fetch(`${sandbox}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: answer.status, body: await answer.json() };
  };
  /** Resolves once `check` passes (polled), or fails with dev's output after `limitMs`. */
  async function until(check: () => Promise<boolean> | boolean, limitMs = 120_000) {
    const began = Date.now();
    while (!(await Promise.resolve(check()).catch(() => false))) {
      if (Date.now() - began > limitMs) throw new Error(`gave up waiting; dev said:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const handlerFile = () => join(scratch.dir, 'packages/sandbox/src/handlers/blacklist.ts');
  let original = '';
  /**
   * The handler file as it was, with the list's total multiplied by `factor` (a wrapper appended, so that
   * the edit does not depend on how the handler is written), or with a line that does not compile.
   */
  const save = (edit: { factor: number } | 'broken') => {
    original ||= readFileSync(handlerFile(), 'utf8');
    const appended =
      edit === 'broken'
        ? '\nconst broken = ;\n'
        : [
            '',
            '// Edited while npm run dev runs (scripts/dev-sandbox-handlers.test.ts).',
            'const listedBefore = blacklistHandlers.listBlacklistRecords!;',
            'blacklistHandlers.listBlacklistRecords = async (context) => {',
            '  const reply = (await listedBefore(context)) as { json: { result: { total: number } } };',
            `  return { json: { result: { ...reply.json.result, total: reply.json.result.total * ${edit.factor} } } } as never;`,
            '};',
            '',
          ].join('\n');
    writeFileSync(handlerFile(), original + appended);
  };

  beforeAll(async () => {
    scratch = scratchRepository({ prefix: 'idv-dev-handlers-' });
    // --memory: the data that stays is the running process's own.
    dev = spawn(process.execPath, ['scripts/dev.mjs', '--port-base', '0', '--memory', '--quiet'], { cwd: scratch.dir, env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    dev.stdout!.on('data', (chunk) => (output += chunk));
    dev.stderr!.on('data', (chunk) => (output += chunk));
    await until(() => output.includes('Ctrl-C stops'), 600_000);
    sandbox = /Sandbox \(stateful, both APIs\)\s+(http:\/\/\S+)/.exec(output)![1]!;
  }, 660_000);
  afterAll(async () => {
    if (dev && dev.exitCode === null) await new Promise((resolve) => (dev.once('exit', resolve), dev.kill('SIGTERM')));
    scratch?.remove();
  });

  it('answers with the edited handler, keeps the record made before, and keeps its handlers through a compile error', async () => {
    const added = await post('/add-blacklist-record', { companyKey, query: { reason: 'Kept across the reload', firstName: 'Ada', lastName: 'Lovelace' } });
    expect(added.status).toBe(200);
    const id = added.body.result;
    const list = () => post('/list-blacklist-records', { companyKey });
    expect((await list()).body.result.total).toBe(1);

    // The list's total counted a thousand times over: only the new code answers that.
    const reported = output.length;
    save({ factor: 1000 });
    await until(async () => (await list()).body.result.total === 1000);
    const after = (await list()).body.result;
    expect(after.data.map((record: { id: string }) => record.id)).toEqual([id]);
    expect(output.slice(reported)).toMatch(/sandbox {2}answers with the new code of handlers\/blacklist\.ts \(\d+ ms\); its data stays/);
    // A refusal from the new code is still a refusal (the server's ApiError), not a 500.
    expect(await post('/add-blacklist-record', { companyKey, query: { reason: 'Again', firstName: 'Ada', lastName: 'Lovelace' } })).toEqual({ status: 400, body: { argumentError: 'already-exists' } });

    // A save that does not compile: said, and the sandbox keeps answering with the handlers it has.
    const broken = output.length;
    save('broken');
    await until(() => /compile {2}sandbox: \d+ problem\(s\)/.test(output.slice(broken)));
    expect(output.slice(broken)).toContain('the sandbox keeps the handlers it has');
    expect((await list()).body.result.total).toBe(1000);
    save({ factor: 2 });
    await until(async () => (await list()).body.result.total === 2);
  }, 300_000);
});
