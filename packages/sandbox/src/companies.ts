// The companies the sandbox knows, from a JSON or YAML file checked against config.schema.json, or the
// demo company when there is none.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { didYouMean } from './nearest.js';

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

/** `/companies/0/callbackUrl` as a reader writes it: `companies[0].callbackUrl`. */
function fieldName(pointer: string, child?: string): string {
  const parts = pointer.split('/').slice(1).map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

/** One line per problem, naming the field; never the field's value, which may be a key. */
function describeProblem(error: ErrorObject): string {
  const at = fieldName(error.instancePath) || 'the configuration';
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = (error.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys((error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
      const hint = didYouMean(field, known) || ` (known: ${known.join(', ')})`;
      return `${fieldName(error.instancePath, field)} is not a known field${hint}`;
    }
    case 'required':
      return `${fieldName(error.instancePath, (error.params as { missingProperty: string }).missingProperty)} is missing`;
    default:
      return `${at} ${error.message}`;
  }
}

/** Checks a configuration object against config.schema.json; throws with every problem listed. */
export function companiesFrom(config: unknown, source?: string): Company[] {
  // Loaded here, for a configuration file only: loading Ajv took about a quarter of the start-up.
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats');
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(require.resolve('../config.schema.json'), 'utf8')));
  const heading = `Invalid sandbox configuration${source ? ` in ${source}` : ''}:`;
  if (!validate(config)) {
    const problems = [...new Set((validate.errors ?? []).map(describeProblem))];
    throw new Error(`${heading}\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
  const companies = (config as { companies: (Partial<Company> & { companyKey: string })[] }).companies.map(withDefaults);
  const firstWithKey = new Map<string, number>();
  for (const [index, company] of companies.entries()) {
    const first = firstWithKey.get(company.companyKey);
    if (first !== undefined) throw new Error(`${heading}\n- companies[${index}].companyKey is the same as companies[${first}].companyKey; each company needs its own key`);
    firstWithKey.set(company.companyKey, index);
  }
  return companies;
}

export function loadCompanies(file: string | undefined): Company[] {
  if (!file) return demoCompanies();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    throw new Error(`Cannot read the configuration file ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message}`);
  }
  const yaml = /\.ya?ml$/i.test(file);
  let config: unknown;
  try {
    // yaml is loaded only for a YAML file: loading it took about a tenth of every start-up.
    config = yaml ? (require('yaml') as typeof import('yaml')).parse(text) : JSON.parse(text);
  } catch (error) {
    // The parsers quote the text around the mistake (yaml below its first line, V8 as `"..." is not valid
    // JSON`), which may be a key: keep only what says where and what.
    const where = (error as Error).message.split('\n')[0]!.replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/, '');
    throw new Error(`${file} is not valid ${yaml ? 'YAML' : 'JSON'}: ${where}`);
  }
  return companiesFrom(config, file);
}
