// The companies the sandbox knows, from a JSON or YAML file checked against config.schema.json, or the
// demo company when there is none.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

const require = createRequire(import.meta.url);

export type Step = { type: string; key: string; [field: string]: unknown };
export type SessionConfig = { id: string; name: string; general?: Record<string, unknown>; steps: Step[]; additionalInformationRequest?: boolean };
export type Company = {
  name: string;
  companyKey: string;
  callbackUrl?: string;
  callbackApiKey?: string;
  screeningPaid: boolean;
  trustedDatabase: boolean;
  registries: string[];
  sessionConfigs: SessionConfig[];
};

export const demoCompanyKey = 'ck_test_sandbox_demo_key_0000';

const title = (en: string) => ({ en });
const kycSteps: Step[] = [
  { type: 'identity-document', key: 'identity-document', title: title('Identity document'), flags: { documentTypes: ['id', 'passport'] } },
  { type: 'liveness', key: 'liveness', title: title('Liveness'), flags: { liveness: true, maxLivenessAttempts: 3 } },
  {
    type: 'user-questionnaire',
    key: 'documents',
    title: title('Documents'),
    questions: [
      { mandatory: false, type: 'attachment', key: 'proof-of-address', title: title('Proof of address') },
      { mandatory: false, type: 'text', key: 'occupation', title: title('Occupation') },
    ],
  },
];

export const demoSessionConfigs: SessionConfig[] = [
  { id: 'cfg-kyc-standard-01', name: 'Standard KYC', general: { language: 'en', sessionLifetime: 1440 }, steps: kycSteps },
  { id: 'cfg-kyc-additional-info', name: 'KYC with additional information', general: { language: 'en', sessionLifetime: 1440 }, steps: kycSteps, additionalInformationRequest: true },
  {
    id: 'cfg-kyc-video-call',
    name: 'KYC with a video call',
    general: { language: 'en', sessionLifetime: 1440 },
    steps: [...kycSteps, { type: 'video-call', key: 'video-call', title: title('Video call') }],
  },
  {
    id: 'cfg-kyb-standard-01',
    name: 'Standard KYB',
    general: { language: 'en', sessionLifetime: 10080 },
    steps: [
      { type: 'company', key: 'company', title: title('Company') },
      { type: 'beneficiaries', key: 'beneficiaries', title: title('Beneficiaries') },
      { type: 'kyb-review', key: 'kyb-review', title: title('Review') },
    ],
  },
];

function withDefaults(company: Partial<Company> & { companyKey: string }, index: number): Company {
  return {
    name: company.name ?? `Company ${index + 1}`,
    companyKey: company.companyKey,
    callbackUrl: company.callbackUrl,
    callbackApiKey: company.callbackApiKey,
    screeningPaid: company.screeningPaid ?? true,
    trustedDatabase: company.trustedDatabase ?? true,
    registries: company.registries ?? ['companies-house'],
    sessionConfigs: company.sessionConfigs ?? demoSessionConfigs,
  };
}

export const demoCompanies = (): Company[] => [withDefaults({ name: 'Demo company', companyKey: demoCompanyKey }, 0)];

/** Checks a configuration object against config.schema.json; throws with every problem listed. */
export function companiesFrom(config: unknown): Company[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(require.resolve('../config.schema.json'), 'utf8')));
  if (!validate(config)) {
    throw new Error(`Invalid sandbox configuration:\n${(validate.errors ?? []).map((e) => `- ${e.instancePath || '/'} ${e.message}`).join('\n')}`);
  }
  const companies = (config as { companies: (Partial<Company> & { companyKey: string })[] }).companies.map(withDefaults);
  const keys = new Set(companies.map((c) => c.companyKey));
  if (keys.size !== companies.length) throw new Error('Invalid sandbox configuration: two companies share a companyKey');
  return companies;
}

export function loadCompanies(file: string | undefined): Company[] {
  if (!file) return demoCompanies();
  const text = readFileSync(file, 'utf8');
  return companiesFrom(/\.ya?ml$/i.test(file) ? parse(text) : JSON.parse(text));
}
