// A sandbox on a free port of 127.0.0.1 with two fake companies and a manual clock, and clients of it.
import { createClient, createLegacyClient, createSandboxClient } from '@idv-toolkit/client';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, beforeEach, expect, inject } from 'vitest';
import { loadDocument } from './spec.js';
import { manualClock } from './clock.js';
import { companiesFrom, demoSessionConfigs } from './companies.js';
import { createSandbox, type SandboxOptions } from './server.js';
import type { Database } from './sql/database.js';

/**
 * SANDBOX_TEST_STORE=pglite (or postgres, with SANDBOX_TEST_DATABASE_URL) runs the scenario tests on that
 * store, one database per test file emptied before each sandbox; by default they run on memory. E.g.
 * `SANDBOX_TEST_STORE=pglite npx vitest run --project sandbox src/handlers --hookTimeout 120000 --testTimeout 120000`.
 */
let testDatabase: Promise<Database> | undefined;
async function storeUnderTest(): Promise<Database | undefined> {
  const store = process.env.SANDBOX_TEST_STORE;
  if (store === undefined || store === 'memory') return undefined;
  if (store === 'pglite') return (testDatabase ??= import('./sql/pglite.js').then(({ openPglite }) => openPglite()));
  if (store === 'postgres') {
    // Without a URL: a database of the file's own on the project's throwaway cluster (pg-cluster.test-helper.ts).
    const url = process.env.SANDBOX_TEST_DATABASE_URL;
    return (testDatabase ??= (async () => {
      const { openPostgres } = await import('./sql/postgres.js');
      const { createTestDatabase } = await import('./sql/pg-cluster.test-helper.js');
      // No driver timers per connection: the callback tests fake setTimeout and count the retry's timer.
      return openPostgres(url ?? `${await createTestDatabase(inject('postgresUrl'))}?idle_timeout=0&max_lifetime=0`);
    })());
  }
  throw new Error(`SANDBOX_TEST_STORE=${store}: use memory, pglite or postgres`);
}

export const keyA = 'ck_test_company_a_0000';
export const keyB = 'ck_test_company_b_0000';
export const callbackKeyA = 'cb_test_company_a_0000';
export const adminToken = 'adm_test_sandbox_0000';

export async function startTestSandbox(options: Partial<SandboxOptions> & { config?: unknown } = {}) {
  const clock = manualClock();
  const companies = companiesFrom(
    options.config ?? {
      companies: [
        { name: 'Company A', companyKey: keyA, callbackApiKey: callbackKeyA, sessionConfigs: demoSessionConfigs },
        { name: 'Company B', companyKey: keyB, screeningPaid: false, trustedDatabase: false, registries: [] },
      ],
    },
  );
  // Seeded, so that tests that compare IDs or sample people get the same ones every run.
  const database = await storeUnderTest();
  const sandbox = createSandbox({ clock, companies, seed: 1, adminToken, database, ...options });
  // A kept database starts each test empty, as memory does.
  if (database) await sandbox.reset();
  const url = await sandbox.listen(0, '127.0.0.1');
  const settings = { baseUrl: url, rateLimit: false as const, retry: false as const };
  return {
    sandbox,
    url,
    clock,
    /** Clients of company A (throwing) and B. */
    a: createClient({ ...settings, companyKey: keyA }),
    b: createClient({ ...settings, companyKey: keyB }),
    legacyA: createLegacyClient({ ...settings, companyKey: keyA }),
    legacyB: createLegacyClient({ ...settings, companyKey: keyB }),
    control: createSandboxClient({ ...settings, companyKey: keyA }),
    controlB: createSandboxClient({ ...settings, companyKey: keyB }),
    close: () => sandbox.close(),
  };
}

/** The documented code a promise rejects with (IdvApiError.code), or 'resolved'. */
export async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/**
 * A fresh test sandbox for each test of the file: `const t = useTestSandbox();` then `t.sandbox.a...`
 * inside tests (the getter is read at run time).
 */
export function useTestSandbox(options: Partial<SandboxOptions> & { config?: unknown } = {}) {
  let current: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
  beforeEach(async () => {
    current = await startTestSandbox(options);
  });
  afterEach(() => current?.close());
  return {
    get sandbox() {
      return current!;
    },
  };
}

const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
ajv.addSchema(loadDocument('current'), 'urn:test:current');

/** Asserts that the body validates against the named schema of the current interface. */
export function conforms(schema: string, body: unknown) {
  const validate = ajv.getSchema(`urn:test:current#/components/schemas/${schema}`)!;
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

/**
 * For a test file whose tests each start their own sandbox: `start(options)` starts one, and it is closed
 * after the test, failed or not.
 */
export function sandboxPerTest(): (options?: Parameters<typeof startTestSandbox>[0]) => ReturnType<typeof startTestSandbox> {
  let started: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
  afterEach(async () => {
    await started?.close();
    started = undefined;
  });
  return async (options) => (started = await startTestSandbox(options));
}
