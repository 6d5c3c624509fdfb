// The maintainer's loop (issue 16): with `npm run dev` running, how long from a save of the spec to each
// artifact having the change: the generated types, the compiled packages, the docs page, the mocks and the
// sandbox answering the new operation; and whether the mock ever failed to answer meanwhile. Each round
// adds one operation (a path file, its three schemas, its `paths:` entry), as docs/changing-the-api.md says.
// Runs on a temporary copy of the repository (the files git tracks or would track, node_modules linked to
// this checkout's), so openapi/ of the checkout is never touched. Target: every artifact <= 1.5 s.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './rounds.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const workspaceDirs = ['openapi', 'docs', ...readdirSync(join(root, 'packages')).map((name) => `packages/${name}`)];

/** A copy of the checkout's files (as git sees them, uncommitted ones included), node_modules linked. */
function scratchRepository() {
  const work = mkdtempSync(join(tmpdir(), 'idv-dev-bench-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    const from = join(root, file);
    if (!existsSync(from) || !lstatSync(from).isFile()) continue;
    mkdirSync(dirname(join(work, file)), { recursive: true });
    copyFileSync(from, join(work, file));
  }
  mkdirSync(join(work, 'node_modules/@idv-toolkit'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry !== '@idv-toolkit' && !entry.startsWith('.')) symlinkSync(join(root, 'node_modules', entry), join(work, 'node_modules', entry));
  }
  symlinkSync(join(root, 'node_modules/.bin'), join(work, 'node_modules/.bin'));
  // npm's record of the install, newer than the copied lockfile: dev's start (ensure-installed.mjs) then
  // sees the dependencies installed and does not run `npm ci` over the links.
  copyFileSync(join(root, 'node_modules/.package-lock.json'), join(work, 'node_modules/.package-lock.json'));
  for (const dir of workspaceDirs) {
    if (!existsSync(join(work, dir, 'package.json'))) continue;
    const { name } = JSON.parse(readFileSync(join(work, dir, 'package.json'), 'utf8'));
    symlinkSync(join(work, dir), join(work, 'node_modules', name));
    if (existsSync(join(root, dir, 'node_modules'))) symlinkSync(join(root, dir, 'node_modules'), join(work, dir, 'node_modules'));
  }
  return work;
}

/** The files of operation number `n` (see docs/changing-the-api.md, "An operation"). */
function operationFiles(n) {
  const id = `countGroupsRound${n}`;
  const Name = `CountGroupsRound${n}`;
  return {
    path: `/count-groups-round-${n}`,
    operationId: id,
    files: {
      [`paths/count-groups-round-${n}.yaml`]: `post:
  operationId: ${id}
  tags: [Groups and users]
  summary: Count the company's user groups, round ${n}
  x-idempotent: true
  requestBody:
    required: true
    content:
      application/json:
        schema:
          $ref: ../components/schemas/${Name}Request.yaml
        examples:
          count:
            summary: Count the groups
            value:
              companyKey: ck_test_not_a_real_key_0000
  responses:
    '200':
      description: The number of groups.
      content:
        application/json:
          schema:
            $ref: ../components/schemas/${Name}Response.yaml
          examples:
            three:
              summary: Three groups
              value:
                count: ${n}
    '400':
      description: The groups could not be counted.
      content:
        application/json:
          schema:
            $ref: ../components/schemas/${Name}Error.yaml
          examples:
            not-found:
              summary: The object asked for does not exist
              value:
                argumentError: not-found
    '529':
      $ref: ../../common/components/responses/TooManyRequests.yaml
`,
      [`components/schemas/${Name}Request.yaml`]: `title: ${Name}Request\ntype: object\nrequired: [companyKey]\nproperties:\n  companyKey:\n    $ref: ../../../common/components/schemas/CompanyKey.yaml\n`,
      [`components/schemas/${Name}Response.yaml`]: `title: ${Name}Response\ntype: object\nrequired: [count]\nproperties:\n  count:\n    type: integer\n    description: How many groups the company has.\n    example: 3\n`,
      [`components/schemas/${Name}Error.yaml`]: `title: ${Name}Error\ntype: object\nrequired: [argumentError]\nproperties:\n  argumentError:\n    type: string\n    description: '\`not-found\`: the object asked for does not exist.'\n    enum: [not-found]\n    example: not-found\n`,
    },
  };
}

/** Saves operation `n` into the copy: its files first, then the `paths:` entry by a rename-over save. */
function saveOperation(work, operation) {
  const api = join(work, 'openapi/current');
  for (const [file, text] of Object.entries(operation.files)) writeFileSync(join(api, file), text);
  const entry = `  ${operation.path}:\n    $ref: paths/${Object.keys(operation.files)[0].slice('paths/'.length)}\n`;
  const rootFile = join(api, 'openapi.yaml');
  const text = readFileSync(rootFile, 'utf8').replace(/^paths:\n/m, `paths:\n${entry}`);
  writeFileSync(`${rootFile}.tmp`, text);
  renameSync(`${rootFile}.tmp`, rootFile);
}

const post = (url, body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(5_000) });
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds from `since` until `check()` resolves true, polled every 20 ms; undefined after `limitMs`. */
async function until(check, since, limitMs) {
  while (performance.now() - since < limitMs) {
    if (await check().catch(() => false)) return (performance.now() - since) / 1000;
    await delay(20);
  }
  return undefined;
}

/**
 * Starts `npm run dev` (scripts/dev.mjs) in a copy of the repository, makes `rounds` saves, and returns per
 * artifact the median seconds from the save, the worst round, the mock's failed probes during reloads, and
 * dev's own report of each save.
 */
export async function devLoopBench({ rounds = 3, limitMs = 60_000 } = {}) {
  const work = scratchRepository();
  const dev = spawn(process.execPath, ['scripts/dev.mjs', '--port-base', '0'], { cwd: work, env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  dev.stdout.on('data', (chunk) => (output += chunk));
  dev.stderr.on('data', (chunk) => (output += chunk));
  const stopDev = () => new Promise((resolve) => (dev.exitCode !== null ? resolve() : (dev.once('exit', resolve), dev.kill('SIGTERM'))));
  try {
    const began = performance.now();
    if ((await until(async () => output.includes('Ctrl-C stops'), began, 300_000)) === undefined) throw new Error(`npm run dev did not start:\n${output}`);
    const url = (label) => new RegExp(`${label}\\s+(http://\\S+)`).exec(output)[1];
    const urls = { docs: url('API reference \\(docs\\)'), mock: url('Mock, current interface \\(Prism\\)'), sandbox: url('Sandbox \\(stateful, both APIs\\)') };
    const artifacts = ['types', 'compiled', 'docs', 'mock', 'sandbox'];
    const figures = Object.fromEntries(artifacts.map((name) => [name, []]));
    const reports = [];
    let failedProbes = 0;
    let probes = 0;
    for (let n = 1; n <= rounds; n++) {
      const operation = operationFiles(n);
      // The mock is asked for an existing operation all through the reload: every answer must come.
      let probing = true;
      const probe = (async () => {
        while (probing) {
          probes++;
          await post(`${urls.mock}/list-groups`, { companyKey: 'ck_test_not_a_real_key_0000' }).then((r) => r.arrayBuffer(), () => failedProbes++);
          await delay(20);
        }
      })();
      const reportStart = output.length;
      const saved = performance.now();
      saveOperation(work, operation);
      const table = (file) => async () => readFileSync(join(work, file), 'utf8').includes(`"${operation.operationId}"`);
      const times = await Promise.all([
        until(table('packages/types/src/generated/current-operations.ts'), saved, limitMs),
        // The compiled client builds its methods from the compiled types package's table when imported.
        until(table('packages/types/dist/generated/current-operations.js'), saved, limitMs),
        until(async () => (await (await fetch(`${urls.docs}/current.html`)).text()).includes(`"operationId":"${operation.operationId}"`), saved, limitMs),
        until(async () => (await post(`${urls.mock}${operation.path}`, { companyKey: 'ck_test_not_a_real_key_0000' })).status === 200, saved, limitMs),
        until(async () => {
          const answer = await post(`${urls.sandbox}${operation.path}`, { companyKey: 'ck_test_sandbox_demo_key_0000' });
          return answer.status === 200 && answer.headers.get('x-sandbox-emulated') === 'false';
        }, saved, limitMs),
      ]);
      artifacts.forEach((name, i) => figures[name].push(times[i]));
      // dev's report of the save ends with its docs line: wait for it before the next save.
      await until(async () => /\n {2}docs {5}/.test(output.slice(reportStart)), saved, limitMs);
      probing = false;
      await probe;
      reports.push(output.slice(reportStart).trim());
    }
    // null: the artifact never had the change within `limitMs` in some round.
    const summary = (values) => (values.some((v) => v === undefined) ? { median: null, worst: null } : { median: median(values), worst: Math.max(...values) });
    return { rounds, ...Object.fromEntries(artifacts.map((name) => [name, summary(figures[name])])), probes, failedProbes, loadAverage: loadavg()[0], reports };
  } finally {
    await stopDev();
    rmSync(work, { recursive: true, force: true });
  }
}

// Stryker disable all: run by hand, `node bench/dev.bench.mjs`, or by `npm run bench`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await devLoopBench({ rounds: Number(process.argv[2] ?? 3) });
  console.log(JSON.stringify(result, null, 2));
}
