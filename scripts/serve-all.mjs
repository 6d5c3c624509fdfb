// What `npm start` and `npm run dev` both serve on 127.0.0.1: the docs, both Prism mocks and the sandbox,
// after installing what is missing and building (turbo, cached).
import { ensureInstalled } from './ensure-installed.mjs';
import { run } from './run.mjs';

export async function prepare() {
  ensureInstalled();
  if ((await run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'])) !== 0) process.exit(1);
}

export async function serveAll(host = '127.0.0.1') {
  const { startMocks } = await import('@idv-toolkit/mock');
  const { freePort } = await import('../packages/mock/src/ports.mjs');
  const { serveDocs } = await import('./serve-docs.mjs');
  const { createSandbox, demoCompanyKey } = await import('@idv-toolkit/sandbox');

  const docs = await serveDocs({ host, port: await freePort(host, 4000) });
  let mocks = await startMocks({ host });
  const sandboxPort = await freePort(host, 4020);
  let sandbox = createSandbox();
  const sandboxUrl = await sandbox.listen(sandboxPort, host);

  const served = {
    docs,
    sandboxUrl,
    get mocks() {
      return mocks;
    },
    printUrls() {
      console.log('');
      console.log(`API reference (docs)             ${docs.url}/`);
      console.log(`Mock, current interface (Prism)  ${mocks.urls.current}`);
      console.log(`Mock, legacy interface (Prism)   ${mocks.urls.legacy}`);
      console.log(`Sandbox (stateful, both APIs)    ${sandboxUrl}  (legacy under /external-api/, control API under /sandbox/)`);
      console.log(`Sandbox applicant page           ${sandboxUrl}/widget/?session_token=<session id>`);
      console.log('');
      console.log(`Any company key works against the mocks. The sandbox's demo company key: ${demoCompanyKey} (fake).`);
    },
    /** Restarts the mocks and the sandbox on their ports, reading the bundles anew. */
    async reload() {
      const ports = { current: Number(new URL(mocks.urls.current).port), legacy: Number(new URL(mocks.urls.legacy).port) };
      await Promise.all([mocks.stop(), sandbox.close()]);
      sandbox = createSandbox();
      await sandbox.listen(sandboxPort, host);
      mocks = await startMocks({ host, ports });
    },
    stop: () => Promise.all([docs.stop(), mocks.stop(), sandbox.close()]),
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
