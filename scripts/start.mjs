#!/usr/bin/env node
// `npm start`: installs what is missing, builds everything (turbo, cached), then serves the docs, both
// Prism mocks and the stateful sandbox on 127.0.0.1 (or --host) and prints one line per URL. Ctrl-C stops them all.
// The flags are read first, so that --help and a mistyped flag answer at once.
import { parseOrExit } from '../packages/mock/src/cli-program.mjs';
import { portsFrom, prepare, sandboxFrom, serveAll, serveProgram } from './serve-all.mjs';

const options = parseOrExit(serveProgram('npm start --', 'Builds what changed, then serves the API reference, both Prism mocks and the stateful sandbox.'));
await prepare();
const served = await serveAll({ host: options.host, ports: portsFrom(options), standby: options.standby, sandbox: sandboxFrom(options) });
served.printUrls();
console.log('Press Ctrl-C to stop.');
served.stopOnSignals();
