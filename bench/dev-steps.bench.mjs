// Where the time of a save goes in `npm run dev` (issue 16): each step that dev runs after a save, run
// alone, one after another, on a scratch copy of the repository (scripts/fixtures/): the bundle and the
// lint of the changed description (spec-check.mjs does both), the generation of its types, the compile of
// the types package, the docs build, the sandbox's routes read again, and a Prism's start on the new bundle
// (spawn to first answer), cold and warm (packages/mock's warm Prism: its modules loaded, then the document);
// and the steps dev added since: the docs build in the process dev keeps between builds (docsWarm), a
// sandbox handler's save (sandboxCode: the package compiled, its handlers swapped in a process that loaded
// it), the check's bundle and lint apart (checkBundleCpu: up to the bundles it hands on before its lint;
// the example validators kept between checks), and the mock's reload as dev does it now (prismInPlace:
// the Prism serving reads the new bundle in place, packages/mock with `warm`). Each figure is the median wall time of `rounds` rounds, with the CPU time of dev's process
// (in-process steps) or of the step's own process beside it: on a shared machine the CPU time says more
// than the wall time.
// `node bench/dev-steps.bench.mjs [rounds]`.
import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { addOperation, countGroupsOperation } from '../scripts/fixtures/count-groups.mjs';
import { scratchRepository } from '../scripts/fixtures/scratch-repository.mjs';
import { median } from './rounds.mjs';

/** Wall and CPU seconds of `work()` (CPU: this process's user + system time). */
async function timed(work) {
  const cpu = process.cpuUsage();
  const began = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - began) / 1000, cpu: (used.user + used.system) / 1e6, value };
}

/** CPU seconds a running child has used so far (Linux: utime + stime of /proc/<pid>/stat, in ticks of 10 ms). */
function childCpu(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Keeps the end of `child`'s stderr in `child.stderrTail`, for the error if it exits. */
function keepStderr(child) {
  child.stderrTail = '';
  child.stderr.on('data', (chunk) => (child.stderrTail = (child.stderrTail + chunk).slice(-2000)));
  return child;
}

const preload = new URL('../packages/mock/src/prism-preload.mjs', import.meta.url).href;

/** A Prism as packages/mock starts one for a reload of `npm run dev`: warm (its modules loaded), waiting for its document. */
async function warmPrism(prismBin, port) {
  const child = spawn(process.execPath, ['--import', preload, prismBin, 'mock', '(given when told)', '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', 'error'], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, IDV_MOCK_WARM: '1' },
  });
  keepStderr(child);
  await new Promise((resolve) => child.on('message', (message) => message?.prism === 'warm' && resolve()));
  // Without the supervisor's socket, the preload's held listen takes Prism's own port when told.
  child.on('message', (message) => message?.prism === 'loaded' && child.send({ prism: 'listen' }));
  return child;
}

/**
 * Wall and CPU seconds from the spawn of a Prism on `document` (or, given a `warm` one, from naming the
 * document to it) to its first answer on `port`.
 */
async function prismStart(prismBin, document, port, warm) {
  const began = performance.now();
  const cpuBefore = warm ? childCpu(warm.pid) : 0;
  const child = warm ?? keepStderr(spawn(process.execPath, [prismBin, 'mock', document, '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', 'error'], { stdio: ['ignore', 'ignore', 'pipe'] }));
  warm?.send({ prism: 'document', path: document });
  try {
    for (;;) {
      const answered = await fetch(`http://127.0.0.1:${port}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":"ck_test_not_a_real_key_0000"}' }).then(() => true, () => false);
      if (answered) return { wall: (performance.now() - began) / 1000, cpu: childCpu(child.pid) - cpuBefore };
      if (child.exitCode !== null) throw new Error(`Prism exited while starting: ${child.stderrTail}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
  }
}

export async function devStepsBench({ rounds = 3 } = {}) {
  const scratch = scratchRepository({
    prefix: 'idv-dev-steps-',
    paths: ['package.json', 'tsconfig.base.json', 'openapi', 'openapi/dist', 'packages/types', 'packages/sandbox/package.json', 'packages/sandbox/dist', 'packages/sandbox/src', 'packages/mock', 'docs', 'scripts'],
  });
  const work = scratch.dir;
  const at = (path) => join(work, path);
  const cwd = process.cwd();
  process.chdir(work);
  let docsBuild;
  let stopMocks;
  try {
    const { specChecker } = await import(pathToFileURL(at('scripts/spec-check.mjs')).href);
    const { generateAll, generatedDir } = await import(pathToFileURL(at('packages/types/scripts/generate.mjs')).href);
    const { compilePackage } = await import(pathToFileURL(at('scripts/compile.mjs')).href);
    const { buildRoutes } = await import(pathToFileURL(at('packages/sandbox/dist/spec.js')).href);
    const { createRequire } = await import('node:module');
    const prismBin = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
    const { warmDocsBuild } = await import(pathToFileURL(at('scripts/dev-docs.mjs')).href);
    const { handlerReloader } = await import(pathToFileURL(at('scripts/dev-sandbox-handlers.mjs')).href);
    await import(pathToFileURL(at('packages/sandbox/dist/index.js')).href);
    const sandboxCode = await handlerReloader(at('packages/sandbox'));
    docsBuild = warmDocsBuild({ dir: at('docs') });
    await docsBuild.run([]);
    const checker = specChecker();
    await checker.check();
    buildRoutes();
    const { startMocks } = await import(pathToFileURL(at('packages/mock/src/index.mjs')).href);
    const mocks = await startMocks({ ports: { current: 0 }, bundles: { current: at('openapi/dist/current.json') }, warm: true, log: () => {}, timeoutMs: 300_000 });
    stopMocks = () => mocks.stop();
    const steps = { check: [], checkCpu: [], checkBundleCpu: [], prismInPlace: [], prismInPlaceCpu: [], generate: [], generateCpu: [], compile: [], compileCpu: [], docs: [], docsWarm: [], docsWarmCpu: [], routes: [], prism: [], prismCpu: [], warmPrism: [], warmPrismCpu: [], sandboxCode: [], sandboxCodeCpu: [] };
    for (let n = 1; n <= rounds; n++) {
      addOperation(at('openapi/current'), countGroupsOperation(n));
      let bundleCpu;
      const cpuBeforeCheck = process.cpuUsage();
      const check = await timed(() =>
        checker.check(['openapi/current/openapi.yaml', ...Object.keys(countGroupsOperation(n).files).map((file) => `openapi/current/${file}`)], () => {
          const used = process.cpuUsage(cpuBeforeCheck);
          bundleCpu = (used.user + used.system) / 1e6;
        }),
      );
      check.bundleCpu = bundleCpu;
      if (!check.value.bundles) throw new Error(`the scratch copy does not lint: ${check.value.errors.join('\n')}`);
      const text = JSON.stringify(check.value.bundles.current, null, 2);
      // The mock as dev reloads it: the Prism serving reads the bundle in place (its CPU, and this process's
      // for the examples completed and the file written).
      const prismPid = mocks.prismPids().current;
      const prismCpuBefore = childCpu(prismPid);
      writeFileSync(at('openapi/dist/current.json'), text);
      const prismInPlace = await timed(async () => mocks.reload({ prepared: await mocks.prepare({ current: text }) }));
      prismInPlace.cpu += childCpu(prismPid) - prismCpuBefore;
      if (mocks.prismPids().current !== prismPid) throw new Error('the mock was not reloaded in place');
      const generate = await timed(async () => {
        for (const [name, content] of await generateAll({ only: ['current'] })) writeFileSync(join(generatedDir, name), content);
      });
      const compile = await timed(() => compilePackage(at('packages/types')));
      const docs = await timed(() => promisify(execFile)(process.execPath, ['build.mjs'], { cwd: at('docs') }));
      const docsCpuBefore = childCpu(docsBuild.pid());
      const docsWarm = await timed(() => docsBuild.run([]));
      docsWarm.cpu = childCpu(docsBuild.pid()) - docsCpuBefore;
      // A handler's save: its source changed, the package compiled, the new handlers swapped in.
      const handler = at('packages/sandbox/src/handlers/blacklist.ts');
      writeFileSync(handler, `${readFileSync(handler, 'utf8')}\nconst savedInRound${n} = ${n};\n`);
      const sandboxCodeStep = await timed(async () => {
        const problems = compilePackage(at('packages/sandbox'));
        if (problems.length) throw new Error(`the sandbox does not compile: ${problems[0]}`);
        return sandboxCode.reload();
      });
      if (!sandboxCodeStep.value.generation) throw new Error('the handlers were not loaded again');
      const routes = await timed(() => buildRoutes());
      if (!routes.value.some((route) => route.operationId === `countGroupsRound${n}`)) throw new Error('the routes were not read again');
      const prism = await prismStart(prismBin, at('openapi/dist/current.json'), 20_000 + Math.floor(Math.random() * 30_000));
      const port = 20_000 + Math.floor(Math.random() * 30_000);
      const warm = await prismStart(prismBin, at('openapi/dist/current.json'), port, await warmPrism(prismBin, port));
      // Each step's wall time, and its CPU time for the steps whose CPU this bench records.
      steps.checkBundleCpu.push(check.bundleCpu);
      for (const [name, figure] of Object.entries({ check, prismInPlace, generate, compile, docs, docsWarm, routes, prism, warmPrism: warm, sandboxCode: sandboxCodeStep })) {
        steps[name].push(figure.wall);
        steps[`${name}Cpu`]?.push(figure.cpu);
      }
    }
    return { rounds, ...Object.fromEntries(Object.entries(steps).map(([name, values]) => [name, Number(median(values).toFixed(3))])), loadAverage: loadavg()[0] };
  } finally {
    docsBuild?.close();
    await stopMocks?.();
    process.chdir(cwd);
    scratch.remove();
  }
}

// Stryker disable all: run by hand, `node bench/dev-steps.bench.mjs`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await devStepsBench({ rounds: Number(process.argv[2] ?? 3) }), null, 2));
}
