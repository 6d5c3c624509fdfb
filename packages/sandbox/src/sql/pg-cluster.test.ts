// The throwaway PostgreSQL of the tests: it answers on its port while it runs, and once stopped nothing
// of it is left (no server, no directory); a cluster whose run died without its teardown is stopped and
// removed by the next start.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { expect, it } from 'vitest';
import { freePort, postgresBin, startPgCluster } from './pg-cluster.test-helper.js';

const answers = async (url: string) => {
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    return (await sql`select 1 as one`)[0]?.one === 1;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 0 });
  }
};

const asPostgres = (args: string[]) => (process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0]!, args.slice(1)]) as [string, string[]];

it('answers while it runs and leaves nothing once stopped', async () => {
  const cluster = await startPgCluster();
  expect(cluster.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
  expect(await answers(cluster.url)).toBe(true);
  cluster.stop();
  expect(existsSync(cluster.dir)).toBe(false);
  expect(await answers(cluster.url)).toBe(false);
}, 60_000);

it('stops and removes the cluster of a run that died without its teardown', async () => {
  const bin = postgresBin()!;
  // A process that has ended: its cluster is abandoned.
  const dead = spawnSync('true').pid;
  // A prefix of this test's own, so that the sandbox test runs of other processes leave it alone.
  const prefix = 'idv-pg-sweep-test-';
  const dir = mkdtempSync(join(tmpdir(), `${prefix}${dead}-`));
  if (process.getuid?.() === 0) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres']).stdout), Number(spawnSync('id', ['-g', 'postgres']).stdout));
  const data = join(dir, 'data');
  const init = spawnSync(...asPostgres([join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']), { encoding: 'utf8' });
  expect(init.status, init.stderr).toBe(0);
  const port = await freePort();
  const start = spawnSync(...asPostgres([join(bin, 'pg_ctl'), 'start', '-w', '-D', data, '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`]), { encoding: 'utf8' });
  expect(start.status, start.stderr + start.stdout).toBe(0);
  const abandoned = `postgres://postgres@127.0.0.1:${port}/postgres`;
  expect(await answers(abandoned)).toBe(true);

  const next = await startPgCluster({ prefix });
  try {
    expect(existsSync(dir)).toBe(false);
    expect(await answers(abandoned)).toBe(false);
  } finally {
    next.stop();
  }
}, 90_000);
