// Requests from loopback addresses of their own (127.0.0.x), for the rate-limit tests of the operator
// (rate-limit-operator.test.ts), and the stores they run on.
import { Agent, request } from 'node:http';
import { afterEach, expect, inject } from 'vitest';
import { keyA, startTestSandbox } from '../sandbox.test-helper.js';
import type { Database } from '../sql/database.js';
import { createTestDatabase } from '../sql/pg-cluster.test-helper.js';
import { openPostgres } from '../sql/postgres.js';

/** An obviously fake key that names no company: its requests are counted, and logged for no company. */
export const nobody = 'ck_test_nobody_0000';
/** The address whose requests name no company. */
export const stranger = '127.0.0.2';

/** The status of one begin sent from `from` with `companyKey`. */
export function begin(url: string, from: string, companyKey: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = request(`${url}/begin`, { method: 'POST', localAddress: from, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ companyKey }));
  });
}

const statusOf = (url: string, agent: Agent) =>
  new Promise<number>((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    })
      .on('error', reject)
      .end();
  });

/** `count` applicant-page requests from `from`, 25 at a time on kept-alive connections (each is logged, and counted). */
export async function flood(url: string, from: string, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 25, localAddress: from });
  try {
    for (let sent = 0; sent < count; sent += 25) await Promise.all(Array.from({ length: Math.min(25, count - sent) }, () => statusOf(`${url}/widget/?session_token=none`, agent)));
  } finally {
    agent.destroy();
  }
}

/** Memory (the memory limiter and log), and PostgreSQL (the limiter of sql/rate-limit.ts, the log in a table). */
export const stores: [string, () => Promise<Database | undefined>][] = [
  ['memory', async () => undefined],
  ['PostgreSQL', async () => openPostgres(await createTestDatabase(inject('postgresUrl')))],
];

type Started = Awaited<ReturnType<typeof startTestSandbox>>;

/**
 * For a describe block: a function that starts a sandbox on the store `open` gives, where 127.0.0.2 is
 * blocked by requests with a key that names no company and company A made one request from 127.0.0.1;
 * each is closed after its test.
 */
export function blockedStrangerSandboxes(open: () => Promise<Database | undefined>): () => Promise<Started> {
  let t: Started | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await t?.close();
    await database?.close();
    t = database = undefined;
  });
  return async () => {
    database = await open();
    t = await startTestSandbox({ rateLimit: 2, database });
    expect([await begin(t.url, stranger, nobody), await begin(t.url, stranger, nobody), await begin(t.url, stranger, nobody)]).toEqual([400, 400, 529]);
    expect(await begin(t.url, '127.0.0.1', keyA)).toBe(200);
    return t;
  };
}
