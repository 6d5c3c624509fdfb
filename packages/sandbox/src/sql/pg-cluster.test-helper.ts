// A throwaway PostgreSQL cluster for the tests: Debian's PostgreSQL (scripts/install-postgres.sh), a new
// data directory in the temp directory, a free port on 127.0.0.1, removed afterwards. `initdb` and
// `pg_ctl` refuse to run as root, so as root they run as the `postgres` user (runuser). pg_ctl starts the
// server detached, so the test run holds no handle on it; a run that dies without its teardown leaves a
// cluster behind, which the next run stops and removes (the directory names the process that made it).
//
// As vitest's globalSetup it provides `postgresUrl` (inject('postgresUrl')); a test file that needs a
// database of its own asks `createTestDatabase(url)` for one, so files running in parallel do not meet.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** Debian puts each major version's programs in /usr/lib/postgresql/<major>/bin: the newest one. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(root, majors[0]!, 'bin') : undefined;
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program, as the `postgres` user when we are root. */
function pgRun(bin: string, program: string, args: string[]): { status: number | null; output: string } {
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, output: `${result.error?.message ?? ''}${result.stdout ?? ''}${result.stderr ?? ''}` };
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Stops and removes the clusters of earlier runs that ended without their teardown. */
function sweepAbandoned(bin: string, prefix: string) {
  for (const name of readdirSync(tmpdir())) {
    const owner = name.startsWith(prefix) ? Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]) : 0;
    if (!owner || owner === process.pid || alive(owner)) continue;
    const dir = join(tmpdir(), name);
    if (existsSync(join(dir, 'data', 'postmaster.pid'))) pgRun(bin, 'pg_ctl', ['stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w']);
    rmSync(dir, { recursive: true, force: true });
  }
}

export type PgCluster = { url: string; port: number; dir: string; stop(): void };

/**
 * Starts a new cluster in `<tmp>/<prefix><pid>-XXXXXX`; `stop()` stops it at once and removes its
 * directory. (The prefix is for the helper's own test, whose abandoned cluster no other run may sweep.)
 */
export async function startPgCluster({ prefix = 'idv-pg-' }: { prefix?: string } = {}): Promise<PgCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is missing: run scripts/install-postgres.sh');
  sweepAbandoned(bin, prefix);
  const dir = mkdtempSync(join(tmpdir(), `${prefix}${process.pid}-`));
  const data = join(dir, 'data');
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(ids.stdout), Number(gids.stdout));
  }
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const init = pgRun(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  if (init.status !== 0) {
    remove();
    throw new Error(`initdb failed:\n${init.output}`);
  }
  // Durability of a throwaway cluster does not matter (the tests kill the sandbox, never the server).
  const settings = ['-c listen_addresses=127.0.0.1', `-k ${dir}`, '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off', '-c max_connections=200'];
  // Another process may take the port between the probe and the start: try a few.
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const started = pgRun(bin, 'pg_ctl', ['start', '-w', '-t', '30', '-D', data, '-l', join(dir, 'server.log'), '-o', `-p ${port} ${settings.join(' ')}`]);
    if (started.status === 0) {
      let stopped = false;
      return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        port,
        dir,
        stop() {
          if (stopped) return;
          stopped = true;
          pgRun(bin, 'pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
          remove();
        },
      };
    }
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    if (attempt >= 2) {
      remove();
      throw new Error(`PostgreSQL did not start:\n${started.output}\n${log}`);
    }
  }
}

/** A new, empty database on the cluster at `url`, for one test file or one test. */
export async function createTestDatabase(url: string): Promise<string> {
  const name = `test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end({ timeout: 0 });
  }
  const database = new URL(url);
  database.pathname = `/${name}`;
  return database.toString();
}

type Provider = { provide(key: 'postgresUrl', value: string): void };

export default async function setup(project: Provider): Promise<() => void> {
  const cluster = await startPgCluster();
  project.provide('postgresUrl', cluster.url);
  // Should the run end without its teardown (an uncaught error), the cluster still goes with it.
  process.once('exit', cluster.stop);
  return () => {
    process.off('exit', cluster.stop);
    cluster.stop();
  };
}
