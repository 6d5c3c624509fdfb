// Starts one redis-server (Debian's, from scripts/install-redis.sh) on a free port of 127.0.0.1 for the
// project's tests, without saving anything, and stops it afterwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

function startRedis(port: number): Promise<ChildProcess> {
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      server.kill();
      reject(error);
    };
    server.once('error', (error) => fail(new Error(`redis-server could not be started (run scripts/install-redis.sh): ${error.message}`)));
    server.once('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${output}`)));
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        server.removeAllListeners('exit');
        resolve(server);
      }
    });
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (spawnSync('redis-server', ['--version']).error) throw new Error('redis-server is missing: run scripts/install-redis.sh');
  let server: ChildProcess | undefined;
  // Another process may take the port between the probe and the start: try a few.
  for (let attempt = 0; !server; attempt++) {
    const port = await freePort();
    try {
      server = await startRedis(port);
      project.provide('redisUrl', `redis://127.0.0.1:${port}`);
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
  // Should the run end without its teardown (killed, crashed), the server still goes with it.
  const stopAtExit = () => server!.kill('SIGTERM');
  process.once('exit', stopAtExit);
  return () =>
    new Promise<void>((resolve) => {
      process.off('exit', stopAtExit);
      if (server!.exitCode !== null || server!.signalCode !== null) return resolve();
      server!.once('exit', () => resolve());
      server!.kill('SIGTERM');
    });
}
