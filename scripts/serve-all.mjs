// What `npm start` and `npm run dev` both serve on 127.0.0.1: the docs, both Prism mocks and the sandbox,
// after installing what is missing and building (turbo, cached).
import { Option } from 'commander';
import { command, wholeNumber } from '../packages/mock/src/cli-program.mjs';
import { ensureInstalled } from './ensure-installed.mjs';
import { run } from './run.mjs';

/** Where each service listens with `--port-base N`: its default port's offset from 4000. */
export const portOffsets = { docs: 0, current: 10, legacy: 11, sandbox: 20 };
const portNumber = wholeNumber(0, 65535);

/** The command line of `npm start` and `npm run dev`: one flag table for both. */
export function serveProgram(name, description) {
  const program = command(name, description)
    .usage('[options]')
    .addHelpText('after', `\nExample:\n  ${name} --host 127.0.0.1 --port-base 5000 --sandbox-port 6020`);
  // Every flag, one entry each with its help text.
  const flags = [
    new Option('--host <address>', 'the address every service listens on').default('127.0.0.1'),
    new Option('--port-base <number>', 'docs on N, mocks on N+10 (current) and N+11 (legacy), sandbox on N+20; 0: any free ports').default(4000).argParser(wholeNumber(0, 65535 - portOffsets.sandbox)),
    new Option('--docs-port <number>', 'the API reference (docs) port, instead of the one from --port-base').argParser(portNumber),
    new Option('--current-port <number>', 'the port of the mock of the current interface').argParser(portNumber),
    new Option('--legacy-port <number>', 'the port of the mock of the legacy interface').argParser(portNumber),
    new Option('--sandbox-port <number>', 'the port of the sandbox').argParser(portNumber),
    new Option('--no-standby', 'do not keep a standby Prism per mock (saves about 150 MB each; a crashed Prism then takes a few seconds to come back)'),
    new Option('--memory', "keep the sandbox's data in memory only (gone when it stops)"),
    new Option('--data <dir>', "keep the sandbox's data in PGlite in this directory (default: .sandbox-data/ at the repository root)"),
    new Option('--database <url>', "keep the sandbox's data in a PostgreSQL server (postgres://user:password@host:port/database)"),
    new Option('--admin-token <token>', 'lets POST /sandbox/reset with this adminToken forget every company\'s data in the sandbox'),
    new Option('--quiet', 'log no line per sandbox request'),
  ];
  for (const flag of flags) program.addOption(flag);
  return program;
}

/** What the sandbox keeps and logs, from the parsed flags (`npm start`, `npm run dev`); a conflict exits 2. */
export function sandboxFrom(options) {
  const store = { memory: options.memory, data: options.data, database: options.database };
  const chosen = ['memory', 'data', 'database'].filter((name) => store[name] !== undefined && store[name] !== false);
  if (chosen.length > 1) {
    process.stderr.write(`error: choose one of --memory, --data and --database, not ${chosen.map((name) => `--${name}`).join(' and ')}\n`);
    process.exit(2);
  }
  return { store, adminToken: options.adminToken, quiet: options.quiet };
}

/** The port of each service from the parsed flags: its own flag, else the base plus its offset (0 stays 0). */
export function portsFrom(options) {
  const ports = {};
  for (const [name, offset] of Object.entries(portOffsets)) ports[name] = options[`${name}Port`] ?? (options.portBase === 0 ? 0 : options.portBase + offset);
  return ports;
}

export async function prepare() {
  ensureInstalled();
  if ((await run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'])) !== 0) process.exit(1);
}

/**
 * Serves everything on `host`; `ports` as from portsFrom (a taken port is replaced by a free one, and the
 * printed URLs say which); `standby` keeps a standby Prism per mock loaded, `warm` a warm one for reloads
 * (`npm run dev`: a reload then takes a fifth of a Prism's start). `sandbox` (from sandboxFrom):
 * where its data lives, opened once and kept across reloads (default: memory), its admin token, and
 * whether it logs a line per request (`quiet`; without `sandbox`, it logs nothing).
 */
export async function serveAll({ host = '127.0.0.1', ports = portsFrom({ portBase: 4000 }), standby = true, warm = false, sandbox: sandboxOptions } = {}) {
  const { startMocks } = await import('@idv-toolkit/mock');
  const { freePort } = await import('../packages/mock/src/ports.mjs');
  const { serveDocs } = await import('./serve-docs.mjs');
  const { batchedLines, createSandbox, demoCompanyKey, openStore } = await import('@idv-toolkit/sandbox');

  const docs = await serveDocs({ host, port: await freePort(host, ports.docs) });
  const mocks = await startMocks({ host, ports: { current: ports.current, legacy: ports.legacy }, standby, warm });
  const sandboxPort = await freePort(host, ports.sandbox);
  const store = await openStore(sandboxOptions?.store ?? { memory: true });
  const write = sandboxOptions && !sandboxOptions.quiet ? batchedLines((text) => process.stdout.write(text)) : undefined;
  const log = write && ((line) => write(`sandbox  ${line}`));
  // One sandbox for the whole run: a reload gives it the routes of the new bundles in place, so its data
  // (memory too), pending callbacks, rate-limit counts and port stay, and no request is refused meanwhile.
  const sandbox = createSandbox({ database: store.database, adminToken: sandboxOptions?.adminToken, log });
  const sandboxUrl = await sandbox.listen(sandboxPort, host);

  const served = {
    docs,
    sandboxUrl,
    mocks,
    /** The running sandbox (`npm run dev` hands it new handler code: sandbox.replaceHandlers). */
    sandbox,
    printUrls() {
      console.log('');
      console.log(`API reference (docs)             ${docs.url}/`);
      console.log(`Mock, current interface (Prism)  ${mocks.urls.current}`);
      console.log(`Mock, legacy interface (Prism)   ${mocks.urls.legacy}`);
      console.log(`Sandbox (stateful, both APIs)    ${sandboxUrl}  (legacy under /external-api/, control API under /sandbox/)`);
      console.log(`Sandbox applicant page           ${sandboxUrl}/widget/?session_token=<session id>`);
      console.log(`Sandbox data                     ${store.description}`);
      console.log(`Sandbox console                  ${sandboxUrl}/console/  (sign in with a company key)`);
      console.log('');
      console.log(`Any company key works against the mocks. The sandbox's demo company key: ${demoCompanyKey} (fake).`);
    },
    /** The sandbox reads its routes and request checks again from the bundles as they are now (a few ms). */
    reloadSandbox() {
      sandbox.reloadRoutes();
    },
    /**
     * Serves the bundles as they are now: the sandbox at once (reloadSandbox), and the mocks swap in new
     * Prisms with no request refused (keeping the old ones if the new do not start; rejects then).
     */
    async reload() {
      served.reloadSandbox();
      await mocks.reload();
    },
    stop: () => Promise.all([docs.stop(), mocks.stop(), sandbox.close().then(() => store.close())]),
    /** Stops everything on Ctrl-C or SIGTERM. */
    stopOnSignals() {
      for (const signal of ['SIGINT', 'SIGTERM']) {
        process.once(signal, async () => {
          await served.stop();
          process.exit(0);
        });
      }
    },
  };
  return served;
}
