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
    const collect = (chunk: Buffer) => {
      output += chunk;
      // Only the first time: the text keeps containing the line, and the server logs its shutdown later.
      if (output.includes('Ready to accept connections')) ready();
    };
    const exited = (code: number | null) => fail(new Error(`redis-server exited with ${code}:\n${output}`));
    const failed = (error: Error) => fail(new Error(`redis-server could not be started (run scripts/install-redis.sh): ${error.message}`));
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
    // Remove exactly the listeners added here: the teardown's own 'exit' listener must survive.
    const settle = () => {
      clearTimeout(timer);
      server.off('exit', exited);
      server.off('error', failed);
      server.stdout!.off('data', collect);
      server.stderr!.off('data', collect);
      // Keep reading what it writes afterwards, so that a full pipe never blocks it.
      server.stdout!.resume();
      server.stderr!.resume();
    };
    const ready = () => {
      settle();
      resolve(server);
    };
    const fail = (error: Error) => {
      settle();
      server.kill('SIGKILL');
      reject(error);
    };
    server.once('error', failed);
    server.once('exit', exited);
    server.stdout!.on('data', collect);
    server.stderr!.on('data', collect);
  });
}

/** Resolves once `server` has exited; SIGTERM first, SIGKILL if it has not gone within 5 s. */
export function stopRedis(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.kill('SIGKILL'), 5_000);
    server.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    server.kill('SIGTERM');
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
  return async () => {
    process.off('exit', stopAtExit);
    await stopRedis(server!);
  };
}
