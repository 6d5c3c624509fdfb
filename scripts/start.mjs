#!/usr/bin/env node
// `npm start`: installs what is missing, builds everything (turbo, cached), then serves the docs, both
// Prism mocks and the stateful sandbox on 127.0.0.1 and prints one line per URL. Ctrl-C stops them all.
import { ensureInstalled } from './ensure-installed.mjs';
import { run } from './run.mjs';

ensureInstalled();
if ((await run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'])) !== 0) process.exit(1);

const { startMocks } = await import('@idv-toolkit/mock');
const { freePort } = await import('../packages/mock/src/ports.mjs');
const { serveDocs } = await import('./serve-docs.mjs');
const { createSandbox, demoCompanyKey } = await import('@idv-toolkit/sandbox');

const host = '127.0.0.1';
const docs = await serveDocs({ host, port: await freePort(host, 4000) });
const mocks = await startMocks({ host });
const sandbox = createSandbox();
const sandboxUrl = await sandbox.listen(await freePort(host, 4020), host);

console.log('');
console.log(`API reference (docs)             ${docs.url}/`);
console.log(`Mock, current interface (Prism)  ${mocks.urls.current}`);
console.log(`Mock, legacy interface (Prism)   ${mocks.urls.legacy}`);
console.log(`Sandbox (stateful, both APIs)    ${sandboxUrl}  (legacy under /external-api/, control API under /sandbox/)`);
console.log(`Sandbox applicant page           ${sandboxUrl}/widget/?session_token=<session id>`);
console.log('');
console.log(`Any company key works against the mocks. The sandbox's demo company key: ${demoCompanyKey} (fake).`);
console.log('Press Ctrl-C to stop.');

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await Promise.all([docs.stop(), mocks.stop(), sandbox.close()]);
    process.exit(0);
  });
}
