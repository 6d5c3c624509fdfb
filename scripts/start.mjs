#!/usr/bin/env node
// `npm start`: installs what is missing, builds everything (turbo, cached), then serves the docs, both
// Prism mocks and the stateful sandbox on 127.0.0.1 and prints one line per URL. Ctrl-C stops them all.
import { prepare, serveAll } from './serve-all.mjs';

await prepare();
const served = await serveAll();
served.printUrls();
console.log('Press Ctrl-C to stop.');
served.stopOnSignals();
