// Closing a PostgreSQL pool (postgres.ts `close`, at the sandbox's shutdown) waits at most 5 s for the
// statements still running, then cuts their connections: a shutdown is not held up by a long statement.
// The 5 s are a timer of the driver's, faked here, so the test does not wait them.
import { afterAll, expect, inject, it, vi } from 'vitest';
import type { Database } from './database.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';

let observer: Database | undefined;
afterAll(async () => {
  await observer?.close();
});

it('cuts a statement still running 5 s after close, and closes', async () => {
  const url = await createTestDatabase(inject('postgresUrl'));
  // No timers per connection (idle, lifetime): the only timer left is close's.
  const db = await openPostgres(`${url}?idle_timeout=0&max_lifetime=0`);
  observer = await openPostgres(url);
  const sleeping = db.query('select pg_sleep(8)').then(
    () => 'finished',
    () => 'cut',
  );
  await expect
    .poll(async () => (await observer!.query<{ n: number }>(`select count(*)::integer as n from pg_stat_activity where datname = current_database() and state = 'active' and query = 'select pg_sleep(8)'`))[0]!.n, { timeout: 10_000 })
    .toBe(1);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const closed = db.close();
    // close() sets its timer after a turn of its own.
    for (let turn = 0; turn < 20 && vi.getTimerCount() === 0; turn++) await null;
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await Promise.race([sleeping, Promise.resolve('running')])).toBe('running');
    await vi.advanceTimersByTimeAsync(1);
    await closed;
  } finally {
    vi.useRealTimers();
  }
  expect(await sleeping).toBe('cut');
});
