// Starts Prism on the bundled current and legacy descriptions, waits until each answers, and stops them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCompleteExamples } from './fill-examples.mjs';
import { createRequire } from 'node:module';
import { freePort } from './ports.mjs';

const require = createRequire(import.meta.url);
const prismBin = require.resolve('@stoplight/prism-cli/dist/index.js');
export const bundles = {
  current: require.resolve('@idv-toolkit/openapi/current.json'),
  legacy: require.resolve('@idv-toolkit/openapi/legacy.json'),
};
export const defaultPorts = { current: 4010, legacy: 4011 };

async function waitUntilAnswering(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism for ${url} exited with code ${child.exitCode}`);
    try {
      await fetch(url, { method: 'POST', signal: AbortSignal.timeout(500) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`Prism for ${url} did not start within ${timeoutMs} ms`);
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts one Prism per interface on `host` (127.0.0.1 unless told otherwise). A port of 0, or a
 * default port that is taken, gets a free port. Returns the URLs and a `stop()` that ends both.
 */
export async function startMocks({ host = '127.0.0.1', ports = defaultPorts, verbose = false, timeoutMs = 30_000 } = {}) {
  const children = [];
  // What Prism serves: the bundles with their response examples completed (fill-examples.mjs).
  const served = mkdtempSync(join(tmpdir(), 'idv-mock-'));
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    rmSync(served, { recursive: true, force: true });
  };
  try {
    const urls = {};
    for (const name of Object.keys(bundles)) {
      const port = await freePort(host, ports[name] ?? 0);
      const document = join(served, `${name}.json`);
      writeFileSync(document, JSON.stringify(withCompleteExamples(JSON.parse(readFileSync(bundles[name], 'utf8')))));
      const child = spawn(
        process.execPath,
        [prismBin, 'mock', document, '--host', host, '--port', String(port), '--verboseLevel', verbose ? 'info' : 'error'],
        { stdio: ['ignore', verbose ? 'inherit' : 'ignore', 'inherit'] },
      );
      children.push(child);
      urls[name] = `http://${host}:${port}`;
    }
    await Promise.all(Object.keys(urls).map((name, i) => waitUntilAnswering(urls[name], children[i], timeoutMs)));
    return { urls, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
