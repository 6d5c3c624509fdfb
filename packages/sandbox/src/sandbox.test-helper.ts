// A sandbox on a free port of 127.0.0.1 with two fake companies and a manual clock, and clients of it.
import { createClient, createLegacyClient, createSandboxClient } from '@idv-toolkit/client';
import { manualClock } from './clock.js';
import { companiesFrom, demoSessionConfigs } from './companies.js';
import { createSandbox, type SandboxOptions } from './server.js';

export const keyA = 'ck_test_company_a_0000';
export const keyB = 'ck_test_company_b_0000';
export const callbackKeyA = 'cb_test_company_a_0000';

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
  const sandbox = createSandbox({ clock, companies, ...options });
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
