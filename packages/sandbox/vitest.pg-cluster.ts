// The throwaway PostgreSQL cluster of the `sandbox` and `sandbox-postgres` projects, one for both. vitest
// runs each project's globalSetup in a module runner of its own, one after another before the first test
// file, while both workers wait: each project started its own cluster (`initdb` and `pg_ctl start`) there.
// The cluster is kept on globalThis of vitest's process and stopped when the last project lets it go. The
// files of both projects share it as those of one did: each makes its own database (createTestDatabase).
import { startPgCluster, type PgCluster } from './src/sql/pg-cluster.test-helper.js';

type Shared = { cluster: Promise<PgCluster>; users: number };
const key = Symbol.for('idv-toolkit.sandbox.pg-cluster');
type Provider = { provide(key: 'postgresUrl', value: string): void };

export default async function setup(project: Provider): Promise<() => void> {
  const holder = globalThis as typeof globalThis & { [key]?: Shared };
  let shared = holder[key];
  if (!shared) {
    const cluster = startPgCluster();
    shared = holder[key] = { cluster, users: 0 };
    // Should the run end without its teardown (an uncaught error), the cluster still goes with it.
    cluster.then((started) => process.once('exit', started.stop), () => {});
  }
  const mine = shared;
  mine.users++;
  let cluster: PgCluster;
  try {
    cluster = await mine.cluster;
  } catch (error) {
    mine.users--;
    if (holder[key] === mine) delete holder[key];
    throw error;
  }
  project.provide('postgresUrl', cluster.url);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--mine.users > 0) return;
    if (holder[key] === mine) delete holder[key];
    process.off('exit', cluster.stop);
    cluster.stop();
  };
}
