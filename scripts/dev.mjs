#!/usr/bin/env node
// `npm run dev`: serves docs, both mocks and the sandbox, and watches openapi/, the docs site's sources and
// the sandbox's sources (watch-spec.mjs: every way of saving, new and deleted files). On each spec save, in
// this one long-lived process: bundle and lint (spec-check.mjs, in a worker thread: dev-check.mjs); the
// bundles, made before the lint, are handed to another worker that makes their types (dev-types-ahead.mjs)
// and to the mocks, which start reading them, while the lint runs; on an error, say
// what is wrong where (file:line:col) and keep everything as it was; else, side by side, the sandbox reads
// its routes again (in place, its data kept), the mocks serve the documents their Prisms read in place
// during the lint (no request refused meanwhile), the types are written and the types package compiled, and the docs are rebuilt in a build
// process kept between saves (dev-docs.mjs), reporting it all in one block, each step's time counted from
// the save.
// A save of a guide or README rebuilds the site's Markdown pages (dev-docs.mjs); a save of the sandbox's
// code compiles it and swaps its new handlers into the running sandbox, its data kept (dev-sandbox-handlers.mjs).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { quietEnv } from './run.mjs';
import { parseOrExit } from '../packages/mock/src/cli-program.mjs';
import { portsFrom, prepare, sandboxFrom, serveAll, serveProgram } from './serve-all.mjs';

const options = parseOrExit(
  serveProgram('npm run dev --', 'Like npm start, and on each save under openapi/: bundle, lint, and unless that finds an error, regenerate the types, reload the mocks and the sandbox, rebuild the docs; on each save of a guide or README: rebuild the guides.'),
);
await prepare();
// Loaded once the flags are read, so that --help and a mistyped flag answer at once.
const { checkerWorker } = await import('./dev-check.mjs');
const { watchFiles, watchSite, watchSpec } = await import('./watch-spec.mjs');
const { docsRebuilder, warmDocsBuild } = await import('./dev-docs.mjs');
const { handlerReloader, sourceOf } = await import('./dev-sandbox-handlers.mjs');
const { pages: sitePages } = await import('../docs/site/pages.mjs');
const { generateAll, generatedDir } = await import('../packages/types/scripts/generate.mjs');
const { compilePackage } = await import('./compile.mjs');
const { typesAhead } = await import('./dev-types-ahead.mjs');
const { cpuBetween, processCpu, threadCpu } = await import('./dev-cpu.mjs');
// One sandbox for the run: a reload after a save keeps its data, memory too (POST /sandbox/reset empties a company).
// `warm`: each save's bundle is read in place by the Prism serving (packages/mock): no process is started
// per save, and a warm Prism per mock (its modules loaded) takes over if one exits.
// No standby Prism (npm start keeps one): each reload would replace it with a full Prism start on the new
// bundle, about 2.4 s of CPU per save beside the next save's check (measured: 1.2 to 1.3 s of CPU less per
// save without it, and every artifact sooner; docs/benchmarks.md). A Prism that exits is replaced by the
// warm one, its port held, so connections wait rather than fail; `--no-standby` is accepted and changes nothing.
const served = await serveAll({ host: options.host, ports: portsFrom(options), standby: false, warm: true, sandbox: sandboxFrom(options) });
served.printUrls();
served.stopOnSignals();
// What the sandbox loaded, read now: a save of its code reloads what changed since (see dev-sandbox-handlers.mjs).
// `served.sandbox` (serve-all.mjs): its replaceHandlers takes the new code; without it, the package's objects are swapped.
const sandboxCode = await handlerReloader('packages/sandbox', { sandbox: served.sandbox });

const ms = (since) => `${Math.round(performance.now() - since)} ms`;
// Each step's CPU seconds beside its time (dev-cpu.mjs): what it would take on a machine of its own.
const cpuNote = (parts) => {
  const known = Object.entries(parts).filter(([, seconds]) => seconds !== undefined);
  return known.length ? `; CPU: ${known.map(([what, seconds]) => `${what ? `${what} ` : ''}${seconds.toFixed(2)} s`).join(', ')}` : '';
};
// How long a burst of saves must be quiet before dev starts: a tool that writes several files writes them
// within a few ms; each ms waited here is a ms later for every artifact.
const quietMs = 25;
const changedLine = (files, burst) =>
  `[${new Date().toLocaleTimeString()}] ${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''} changed${burst?.firstEventAt === undefined ? '' : ` (seen ${ms(burst.firstEventAt)} ago; times below are from then)`}`;
// At most this many problems are printed per save; `npm run lint` lists them all.
const shownProblems = 10;

async function writeIfChanged(path, text) {
  const old = await readFile(path, 'utf8').catch(() => undefined);
  if (old === text) return false;
  await writeFile(path, text);
  return true;
}

function problemLines(label, problems) {
  const shown = problems.slice(0, shownProblems).map((line) => `           ${line}`);
  if (problems.length > shownProblems) shown.push(`           … and ${problems.length - shownProblems} more (npm run lint lists them all)`);
  return [`  ${label}`, ...shown];
}

// In a worker thread: the lint does not yield, and this thread serves the sandbox and hands the bundles on.
const checker = checkerWorker();
// The types of each save are made in a worker beside the lint, from the check's bundles: see dev-types-ahead.mjs.
const ahead = typesAhead();
const docsBuild = warmDocsBuild({ env: quietEnv });
const rebuildDocs = docsRebuilder({ run: docsBuild.run, cpu: () => ({ pid: docsBuild.pid(), seconds: processCpu(docsBuild.pid()) }) });
// The bundles the mocks, sandbox and types were last made from: those of the build at start, then each save's.
const servedBundles = new Map();
for (const name of ['current', 'legacy', 'sandbox']) servedBundles.set(name, await readFile(`openapi/dist/${name}.json`, 'utf8').catch(() => undefined));

async function rebuild(files, burst) {
  // Every time is counted from the save (the first change of the burst), as the artifacts' readers see it.
  const began = burst?.firstEventAt ?? performance.now();
  const lines = [changedLine(files.map((file) => `openapi/${file}`), burst)];
  // As soon as the check has bundled (before its lint), the types worker makes the types of its bundles
  // and the mocks start reading them, held from the port until the check has passed (then swapped in) or
  // dropped if it fails.
  let prepared;
  let early;
  // When the check's bundles came and when the mocks had taken them (the document being read): the mocks
  // line says where a late mock lost its time.
  const mockTimes = {};
  // The Prisms' CPU from the hand-over to their swap: their read of the new documents.
  const prismPids = Object.values(served.mocks.prismPids()).filter(Boolean);
  const prismCpu = () => prismPids.reduce((sum, pid) => sum + (processCpu(pid) ?? 0), 0);
  let prismCpuAtBundle;
  const onBundled = (texts) => {
    mockTimes.bundled = performance.now();
    prismCpuAtBundle = prismCpu();
    // Types for the bundles that differ from those served (not for the second half of a burst the watcher
    // saw in two, whose bundles the first half served already).
    const changed = Object.fromEntries(Object.entries(texts).filter(([name, text]) => servedBundles.get(name) !== text));
    if (Object.keys(changed).length) early = ahead.make(changed);
    prepared = served.mocks.prepare(texts).then(
      async (made) => {
        // When the Prisms had read the new documents (made, held from the port).
        await Promise.all(Object.values(made?.prisms ?? {}).map((prism) => prism?.loaded?.catch(() => {})));
        mockTimes.read = performance.now();
        return made;
      },
      () => undefined,
    );
  };
  // Only the APIs made from the saved files are bundled and linted again; the others keep their last bundle.
  const { texts, errors, warnings, cpu: checkCpu } = await checker.check(files.map((file) => `openapi/${file}`), onBundled);
  const checkNote = cpuNote(checkCpu?.total === undefined ? { bundle: checkCpu?.bundle, lint: checkCpu?.lint } : { '': checkCpu.total });
  const dropPrepared = () => prepared?.then((made) => made?.cancel());
  if (!texts) {
    dropPrepared();
    lines.push(...problemLines(`check    ${errors.length} error(s) (${ms(began)}${checkNote}); types, mocks, sandbox and docs stay as they were:`, errors));
    return console.log(lines.join('\n'));
  }
  lines.push(warnings.length ? problemLines(`check    ${warnings.length} warning(s) (${ms(began)}${checkNote}):`, warnings).join('\n') : `  check    no problems (${ms(began)}${checkNote})`);

  const bundled = [];
  await mkdir('openapi/dist', { recursive: true });
  for (const [name, text] of Object.entries(texts)) {
    // Against what this process last served, not the file alone: a build run meanwhile may have written it.
    if (servedBundles.get(name) === text) continue;
    await writeIfChanged(`openapi/dist/${name}.json`, text);
    servedBundles.set(name, text);
    bundled.push(name);
  }
  lines.push(`  bundle   ${bundled.length ? bundled.join(', ') : 'unchanged'} (${ms(began)})`);
  if (!bundled.length) {
    dropPrepared();
    return console.log(lines.join('\n'));
  }

  // From here on the steps only read the written bundles, so they run side by side: the sandbox's routes
  // (a few ms, in place), the mocks' swap (their Prisms read the check's bundles during the lint), the
  // types and their compile, and the docs build (in its own process, as soon as the types it reads for
  // the code samples are written).
  try {
    const sandboxCpu = threadCpu();
    served.reloadSandbox();
    lines.push(`  sandbox  answers with the change (${ms(began)}${cpuNote({ '': cpuBetween(sandboxCpu, threadCpu()) })})`);
  } catch (error) {
    lines.push(`  sandbox  failed to read the new bundles, keeps the previous routes: ${error.message.split('\n')[0]}`);
  }
  const at = (time) => (time === undefined ? 'not' : `${Math.round(time - began)} ms`);
  const reloaded = served.mocks.reload({ prepared }).then(
    () => `  mocks    answer with the change (${ms(began)}; the check's bundle at ${at(mockTimes.bundled)}, read by the Prism at ${at(mockTimes.read)}${cpuNote({ Prism: prismCpuAtBundle === undefined ? undefined : cpuBetween(prismCpuAtBundle, prismCpu()) })})`,
    (error) => `  mocks    failed (mocks that did not start leave the previous ones answering): ${error.message.split('\n')[0]}`,
  );
  // The worker's types, if it made them of the bundles served; else generated here.
  const made = await early;
  const fits = made?.texts && bundled.every((name) => made.texts[name] === servedBundles.get(name));
  const generated = fits ? made.files : await generateAll({ only: bundled });
  const written = [];
  for (const [name, content] of generated) if (await writeIfChanged(`${generatedDir}/${name}`, content)) written.push(name);
  lines.push(`  types    ${written.length ? written.join(', ') : 'unchanged'}: fresh ${ms(began)} after the save${fits ? ` (made beside the lint${cpuNote({ '': made.cpu })})` : made?.failed ? ` (made here: the types worker failed: ${made.failed})` : ''}`);
  // The docs read the bundles and the generated tables, not the compiled packages.
  const docs = rebuildDocs(false);

  // The types package compiled with the new types, in this process: the client builds its methods from the
  // types package's tables at import, so a new client method is there at once for code that imports it.
  // The client's and sandbox's own sources did not change: Oxc's output for them would be the same.
  const compileCpu = threadCpu();
  const problems = compilePackage('packages/types');
  lines.push(problems.length ? `  compile  types failed:\n${problems.slice(0, shownProblems).join('\n')}` : `  compile  types (${ms(began)}${cpuNote({ '': cpuBetween(compileCpu, threadCpu()) })})`);
  lines.push(await reloaded);
  const docsLine = await docs;
  // The docs line says how long the build took; when it ended, counted from the save, is beside it.
  console.log(lines.join('\n'));
  console.log(`${docsLine}, done ${ms(began)} after the save`);
}

// What is wrong already is said at start, and the lint results primed, so that a save lints only what it
// changed.
const first = await checker.check();
// The types' generator and the docs build run once now, so that the first save finds them warm (their first
// runs are their slowest: a thread's first generation, a build process's start and imports).
const warmedUp = Promise.all([ahead.warmUp(), rebuildDocs(false), served.mocks.warmReady?.()]);
if (first.errors.length) console.log(problemLines(`openapi/ has ${first.errors.length} error(s) now; a save that fixes them reloads everything:`, first.errors).join('\n'));
await watchSpec('openapi', rebuild, { quietMs });

// A save of a guide, a package README or the site's template rebuilds the Markdown pages and the search
// index (not the reference pages: they come from the spec).
async function rebuildGuides(files, burst) {
  const lines = [changedLine(files, burst)];
  lines.push(await rebuildDocs(true));
  console.log(lines.join('\n'));
}
await watchSite('.', sitePages.map((page) => page.source), rebuildGuides, { quietMs });

// A save of the sandbox's code (not its tests): compile the package (Oxc, a fraction of a second), then the
// running sandbox answers with the new handlers, its data, callbacks and port kept. A compile error keeps
// the handlers it has.
const sandboxSource = /^packages\/sandbox\/src\/.+\.ts$/;
const notSandboxCode = /\.(test|test-d|test-helper|d)\.ts$/;
async function reloadSandboxCode(files, burst) {
  const began = burst?.firstEventAt ?? performance.now();
  const lines = [changedLine(files, burst)];
  const problems = compilePackage('packages/sandbox');
  if (problems.length) {
    lines.push(...problemLines(`compile  sandbox: ${problems.length} problem(s) (${ms(began)}); the sandbox keeps the handlers it has:`, problems));
    return console.log(lines.join('\n'));
  }
  lines.push(`  compile  sandbox (${ms(began)})`);
  try {
    const plan = await sandboxCode.reload();
    const changed = plan.changed.filter((path) => plan.fresh.includes(path)).map(sourceOf);
    lines.push(plan.generation ? `  sandbox  answers with the new code of ${changed.join(', ')} (${ms(began)}); its data stays` : `  sandbox  no handler code changed (${ms(began)})`);
    if (plan.needRestart.length) lines.push(`  sandbox  ${plan.needRestart.map(sourceOf).join(', ')}: used by the sandbox's server itself, which keeps the code it started with until npm run dev restarts`);
  } catch (error) {
    lines.push(`  sandbox  failed to load the new handlers, keeps the ones it has: ${String(error?.message ?? error).split('\n')[0]}`);
  }
  console.log(lines.join('\n'));
}
await watchFiles('.', ['packages/sandbox/src'], reloadSandboxCode, { include: (file) => sandboxSource.test(file) && !notSandboxCode.test(file), quietMs });
// Ready once the warm-ups are done (the watchers already run: a save meanwhile is handled, only slower):
// a save right after this line finds every step warm and no start-up work beside it.
// At most a minute: a warm Prism that keeps failing to load is the mock's to report, not a reason to wait.
await Promise.race([warmedUp, new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
console.log('Watching openapi/, the guides and the sandbox\'s code for changes. Ctrl-C stops.\n');
