#!/usr/bin/env node
// `npm run sandbox`: the stateful sandbox on one origin until Ctrl-C or SIGTERM.
import { Option } from 'commander';
import { command, exitWithUsage, parseOptions, UsageError, wholeNumber } from './cli-program.js';
import { demoCompanyKey, loadCompanies, type Company } from './companies.js';
import { defaultLimits } from './limits.js';
import { storeConflict } from './store-choice.js';

const program = command('npm run sandbox --', 'The stateful sandbox of the identity verification service, on one origin.')
  .usage('[options]')
  .addHelpText('after', '\nExample:\n  npm run sandbox -- --config companies.yaml --port 4020');

// Every flag, one entry each with its help text. A new flag is one more entry, read from `options` below.
const flags = [
  new Option('--host <address>', 'the address to listen on').default('127.0.0.1'),
  new Option('--port <number>', 'the port to listen on (0: any free port)').default(4020).argParser(wholeNumber(0, 65535)),
  new Option('--config <file>', 'a JSON or YAML file of companies, described by config.schema.json (default: one demo company)'),
  new Option('--seed <number>', 'make IDs reproducible from this seed, for tests only (one ID predicts the next)').argParser(wholeNumber(0)),
  new Option('--rate-limit <number>', 'requests a minute per IP address before 529').default(600).argParser(wholeNumber(1)),
  new Option('--block-seconds <number>', 'how long an IP that exceeded the rate limit stays blocked').default(3600).argParser(wholeNumber(0)),
  new Option('--admin-token <token>', 'lets POST /sandbox/reset with this adminToken forget every company\'s data, and listRateLimit/unblockAddress see and unblock every address (the console\'s operator); default: only per-company resets'),
  new Option('--quiet', 'log no line per request (method, path, operation, status, ms, company; never a key)'),
  new Option('--memory', 'keep the data in memory only: gone when the sandbox stops (the default with --seed)'),
  new Option('--data <dir>', 'keep the data in PGlite (embedded PostgreSQL) in this directory (default: .sandbox-data/ where npm was run)'),
  new Option('--database <url>', 'keep the data in a PostgreSQL server, shared by every sandbox given the same URL (postgres://user:password@host:port/database)'),
  new Option('--max-records <number>', 'records of one kind a company may hold before wrong-parameters (benchmarks raise it)').default(defaultLimits.maxRecordsPerCompany).argParser(wholeNumber(1)),
];
for (const flag of flags) program.addOption(flag);

type Options = { host: string; port: number; config?: string; seed?: number; rateLimit: number; blockSeconds: number; adminToken?: string; quiet?: boolean; maxRecords: number; memory?: boolean; data?: string; database?: string };

function read(): { options: Options; companies: Company[] } {
  try {
    const options = parseOptions<Options>(program, process.argv.slice(2));
    if (!options) process.exit(0);
    const conflict = storeConflict(options);
    if (conflict) throw new UsageError(conflict);
    return { options, companies: loadCompanies(options.config) };
  } catch (error) {
    if (error instanceof UsageError) exitWithUsage(program, error.message);
    // A configuration problem: its message names the file and the field, never a key.
    console.error((error as Error).message);
    process.exit(2);
  }
}
const { options, companies } = read();
// Loaded once the flags are read: it builds routes and validators from the spec, so --help stays instant.
const { createSandbox } = await import('./server.js');
const { batchedLines } = await import('./request-log.js');
const { openStore } = await import('./store-choice.js');
let store: Awaited<ReturnType<typeof openStore>>;
try {
  store = await openStore(options);
} catch (error) {
  // Names the directory or the server (never a password) and what to do.
  console.error(`Cannot open the sandbox's store: ${(error as Error).message}`);
  process.exit(1);
}
const log = options.quiet ? undefined : batchedLines((text) => process.stdout.write(text));
const sandbox = createSandbox({ companies, seed: options.seed, rateLimit: options.rateLimit, blockSeconds: options.blockSeconds, adminToken: options.adminToken, log, limits: { maxRecordsPerCompany: options.maxRecords }, database: store.database });
let origin: string;
try {
  origin = await sandbox.listen(options.port, options.host);
} catch (error) {
  const { code } = error as NodeJS.ErrnoException;
  console.error(code === 'EADDRINUSE' ? `Port ${options.port} on ${options.host} is taken; choose another with --port.` : `Cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
  await store.close();
  process.exit(1);
}
console.log(`Sandbox (current interface, legacy under /external-api/, control API under /sandbox/): ${origin}`);
console.log(`Applicant page: ${origin}/widget/?session_token=<session id>`);
console.log(`Data: ${store.description}`);
console.log(`Console: ${origin}/console/ (sign in with a company key${options.adminToken ? ', or the admin token to see every company' : ''})`);
if (options.seed !== undefined) console.log(`IDs are reproducible from --seed ${options.seed}: for tests only, never for a sandbox others can reach.`);
if (!options.config) console.log(`Demo company key: ${demoCompanyKey} (a fake key for the sandbox only)`);
else console.log(`Companies: ${companies.map((c) => c.name).join(', ')} (keys from ${options.config})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await sandbox.close();
    await store.close();
    process.exit(0);
  });
}
