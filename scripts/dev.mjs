#!/usr/bin/env node
// `npm run dev`: serves docs, both mocks and the sandbox, and watches openapi/. On each save, in this one
// long-lived process: bundle and regenerate the types first (the fast path), then lint, reload the mocks
// and the sandbox, and rebuild the docs, reporting it all in one short block.
import { execFile } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { quietEnv } from './run.mjs';
import { parseOrExit } from '../packages/mock/src/cli-program.mjs';
import { portsFrom, prepare, serveAll, serveProgram } from './serve-all.mjs';

const options = parseOrExit(
  serveProgram('npm run dev --', 'Like npm start, and on each save under openapi/: bundle, regenerate the types, lint, reload the mocks and the sandbox, rebuild the docs.'),
);
await prepare();
// Loaded once the flags are read, so that --help and a mistyped flag answer at once.
const { bundle, lint, loadConfig } = await import('@redocly/openapi-core');
const { parse } = await import('yaml');
const { generateAll, generatedDir } = await import('../packages/types/scripts/generate.mjs');
const apis = Object.entries(parse(await readFile('openapi/redocly.yaml', 'utf8')).apis).map(([alias, { root }]) => ({ alias, name: alias.split('@')[0], root: `openapi/${root}` }));
const served = await serveAll({ host: options.host, ports: portsFrom(options), standby: options.standby });
served.printUrls();
console.log('Watching openapi/ for changes. Ctrl-C stops.\n');
served.stopOnSignals();

const ms = (since) => `${Math.round(performance.now() - since)} ms`;

async function writeIfChanged(path, text) {
  const old = await readFile(path, 'utf8').catch(() => undefined);
  if (old === text) return false;
  await writeFile(path, text);
  return true;
}

async function rebuild(changed) {
  const began = performance.now();
  const lines = [`[${new Date().toLocaleTimeString()}] ${changed}`];
  const config = await loadConfig({ configPath: 'openapi/redocly.yaml' });
  const bundled = [];
  for (const api of apis) {
    const { bundle: result, problems } = await bundle({ ref: api.root, config: config.forAlias(api.alias) });
    const errors = problems.filter((p) => p.severity === 'error');
    if (errors.length) {
      lines.push(`  bundle   ${api.name}: ${errors.length} error(s): ${errors[0].message}`);
      console.log(lines.join('\n'));
      return;
    }
    await mkdir('openapi/dist', { recursive: true });
    if (await writeIfChanged(`openapi/dist/${api.name}.json`, JSON.stringify(result.parsed, null, 2))) bundled.push(api.name);
  }
  lines.push(`  bundle   ${bundled.length ? bundled.join(', ') : 'unchanged'} (${ms(began)})`);
  if (!bundled.length) return console.log(lines.join('\n'));

  const files = await generateAll();
  const written = [];
  for (const [name, content] of files) if (await writeIfChanged(`${generatedDir}/${name}`, content)) written.push(name);
  lines.push(`  types    ${written.length ? written.join(', ') : 'unchanged'}: fresh ${ms(began)} after the save`);

  const problems = [];
  for (const api of apis) for (const p of await lint({ ref: api.root, config: config.forAlias(api.alias) })) problems.push(`${api.name}: ${p.ruleId}: ${p.message}`);
  lines.push(`  lint     ${problems.length ? `${problems.length} problem(s)\n           ${problems.slice(0, 5).join('\n           ')}` : 'no problems'}`);

  await served.reload();
  lines.push(`  reload   mocks and sandbox (${ms(began)})`);
  console.log(lines.join('\n'));

  const docsBegan = performance.now();
  await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: 'docs', env: quietEnv }).then(
    () => console.log(`  docs     rebuilt (${ms(docsBegan)})`),
    (error) => console.log(`  docs     failed: ${error.message.split('\n')[0]}`),
  );
}

let timer;
let running = Promise.resolve();
watch('openapi', { recursive: true }, (_event, file) => {
  if (!file || /^(dist|released|tests|node_modules)\//.test(file) || !/\.(ya?ml)$/.test(file)) return;
  clearTimeout(timer);
  timer = setTimeout(() => {
    running = running.then(() => rebuild(`openapi/${file} changed`)).catch((error) => console.log(`  failed   ${error.message}`));
  }, 50);
});
