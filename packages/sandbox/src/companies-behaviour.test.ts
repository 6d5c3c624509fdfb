// The companies a sandbox knows: the demo company and its saved configurations as the README documents
// them (what `begin` with a demo configId starts and the applicant page shows), the defaults a
// configuration file may leave out, and the messages of a configuration with mistakes. Plain function
// calls, no server: the quickest tests of the package, so a changed demo configuration fails at once.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { companiesFrom, demoCompanies, demoCompanyKey, demoSessionConfigs, loadCompanies } from './companies.js';

const key = 'ck_test_companies_0000';
const problemsOf = (config: unknown, source?: string) => {
  try {
    companiesFrom(config, source);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no error');
};

const kycSteps = [
  { type: 'identity-document', key: 'identity-document', title: { en: 'Identity document' }, flags: { documentTypes: ['id', 'passport'] } },
  { type: 'liveness', key: 'liveness', title: { en: 'Liveness' }, flags: { liveness: true, maxLivenessAttempts: 3 } },
  {
    type: 'user-questionnaire',
    key: 'documents',
    title: { en: 'Documents' },
    questions: [
      { mandatory: false, type: 'attachment', key: 'proof-of-address', title: { en: 'Proof of address' } },
      { mandatory: false, type: 'text', key: 'occupation', title: { en: 'Occupation' } },
    ],
  },
];

describe('the demo company', () => {
  it('has the documented fake key, a name, screening, a trusted database and the companies-house registry, and no callbacks', () => {
    expect(demoCompanyKey).toBe('ck_test_sandbox_demo_key_0000');
    const companies = demoCompanies();
    expect(companies).toHaveLength(1);
    expect(companies[0]).toEqual({
      name: 'Demo company',
      companyKey: 'ck_test_sandbox_demo_key_0000',
      callbackUrl: undefined,
      callbackApiKey: undefined,
      screeningPaid: true,
      trustedDatabase: true,
      registries: ['companies-house'],
      sessionConfigs: demoSessionConfigs,
    });
  });

  it('has the four documented configurations, step by step', () => {
    expect(demoSessionConfigs).toEqual([
      { id: 'cfg-kyc-standard-01', name: 'Standard KYC', general: { language: 'en', sessionLifetime: 1440 }, steps: kycSteps },
      { id: 'cfg-kyc-additional-info', name: 'KYC with additional information', general: { language: 'en', sessionLifetime: 1440 }, steps: kycSteps, additionalInformationRequest: true },
      { id: 'cfg-kyc-video-call', name: 'KYC with a video call', general: { language: 'en', sessionLifetime: 1440 }, steps: [...kycSteps, { type: 'video-call', key: 'video-call', title: { en: 'Video call' } }] },
      {
        id: 'cfg-kyb-standard-01',
        name: 'Standard KYB',
        general: { language: 'en', sessionLifetime: 10080 },
        steps: [
          { type: 'company', key: 'company', title: { en: 'Company' } },
          { type: 'beneficiaries', key: 'beneficiaries', title: { en: 'Beneficiaries' } },
          { type: 'kyb-review', key: 'kyb-review', title: { en: 'Review' } },
        ],
      },
    ]);
  });

  it('is what a sandbox without a configuration file knows', () => {
    expect(loadCompanies(undefined)).toEqual(demoCompanies());
    expect(loadCompanies('')).toEqual(demoCompanies());
  });
});

describe('a configuration file', () => {
  it('may give only the key: the name counts companies from 1, and the rest are the documented defaults', () => {
    const [first, second] = companiesFrom({ companies: [{ companyKey: key }, { companyKey: `${key}_2` }] });
    expect(first).toEqual({ name: 'Company 1', companyKey: key, callbackUrl: undefined, callbackApiKey: undefined, screeningPaid: true, trustedDatabase: true, registries: ['companies-house'], sessionConfigs: demoSessionConfigs });
    expect(second!.name).toBe('Company 2');
  });

  it('keeps every field it gives, false and empty ones too', () => {
    const sessionConfigs = [{ id: 'cfg-own', name: 'Own', steps: [{ type: 'liveness', key: 'live' }] }];
    const given = { name: 'Acme (test)', companyKey: key, callbackUrl: 'http://127.0.0.1:3000/cb', callbackApiKey: 'cb_test_companies_0000', screeningPaid: false, trustedDatabase: false, registries: [], sessionConfigs };
    expect(companiesFrom({ companies: [given] })).toEqual([given]);
    expect(companiesFrom({ companies: [{ companyKey: key, name: '', sessionConfigs: [] }] })[0]).toMatchObject({ name: '', sessionConfigs: [] });
  });

  it('with a mistake names the source in its heading, or none, and lists each problem once', () => {
    expect(problemsOf({ companies: [] })).toBe('Invalid sandbox configuration:\n- companies must NOT have fewer than 1 items');
    expect(problemsOf({ companies: [] }, 'companies.yaml')).toBe('Invalid sandbox configuration in companies.yaml:\n- companies must NOT have fewer than 1 items');
    expect(problemsOf(42)).toBe('Invalid sandbox configuration:\n- the configuration must be object');
    expect(problemsOf({})).toBe('Invalid sandbox configuration:\n- companies is missing');
    const twice = problemsOf({ companies: [{ companyKey: key, registries: ['Bad Name', 'Also Bad'] }] });
    expect(twice).toBe('Invalid sandbox configuration:\n- companies[0].registries[0] must match pattern "^[a-z0-9-]+$"\n- companies[0].registries[1] must match pattern "^[a-z0-9-]+$"');
  });

  it('names a field of a nested object and a step by their place', () => {
    const message = problemsOf({ companies: [{ companyKey: key, sessionConfigs: [{ id: 'c', name: 'n', steps: [{ type: 'liveness' }] }] }] });
    expect(message).toBe('Invalid sandbox configuration:\n- companies[0].sessionConfigs[0].steps[0].key is missing');
  });

  it('names list items by index, past 9 too, and a field whose name holds digits as a field', () => {
    const companies = Array.from({ length: 12 }, (_, i) => ({ companyKey: `${key}_${i}` }));
    companies[11] = { companyKey: 'short' };
    expect(problemsOf({ companies })).toBe('Invalid sandbox configuration:\n- companies[11].companyKey must NOT have fewer than 8 characters');
    expect(problemsOf({ companies: [{ companyKey: key, callbackUrl2: 'x' }] })).toMatch(/^Invalid sandbox configuration:\n- companies\[0\]\.callbackUrl2 is not a known field; did you mean callbackUrl\?$/);
    expect(problemsOf({ companies: [{ companyKey: key, '2fa': true }] })).toMatch(/^Invalid sandbox configuration:\n- companies\[0\]\.2fa is not a known field/);
  });

  it('with a key shared by three companies names the first one it repeats', () => {
    const message = problemsOf({ companies: [{ companyKey: key }, { companyKey: `${key}_2` }, { companyKey: key }] });
    expect(message).toBe('Invalid sandbox configuration:\n- companies[2].companyKey is the same as companies[0].companyKey; each company needs its own key');
  });

  it('is read as YAML for .yaml and .yml in any case, else as JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-companies-'));
    const yaml = `companies:\n  - companyKey: ${key}\n    name: From YAML\n`;
    for (const name of ['a.yaml', 'b.yml', 'c.YML', 'd.Yaml']) {
      writeFileSync(join(dir, name), yaml);
      expect(loadCompanies(join(dir, name))[0]!.name).toBe('From YAML');
    }
    writeFileSync(join(dir, 'e.json'), JSON.stringify({ companies: [{ companyKey: key, name: 'From JSON' }] }));
    expect(loadCompanies(join(dir, 'e.json'))[0]!.name).toBe('From JSON');
    // YAML is not JSON: a .json file holding YAML is a JSON mistake, and a .yaml.txt file is read as JSON.
    writeFileSync(join(dir, 'f.json'), yaml);
    expect(() => loadCompanies(join(dir, 'f.json'))).toThrow(`${join(dir, 'f.json')} is not valid JSON: `);
    writeFileSync(join(dir, 'g.yaml.txt'), yaml);
    expect(() => loadCompanies(join(dir, 'g.yaml.txt'))).toThrow(`${join(dir, 'g.yaml.txt')} is not valid JSON: `);
  });

  it('that cannot be read says why: no such file, a folder, or the system\'s reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-companies-'));
    mkdirSync(join(dir, 'folder.yaml'));
    expect(() => loadCompanies(join(dir, 'folder.yaml'))).toThrow(`Cannot read the configuration file ${join(dir, 'folder.yaml')}: it is a folder`);
    expect(() => loadCompanies(join(dir, 'none.json'))).toThrow(`Cannot read the configuration file ${join(dir, 'none.json')}: no such file`);
    expect(() => loadCompanies(join(dir, 'folder.yaml', 'x', '\u0000'))).toThrow(/^Cannot read the configuration file .*: The argument 'path' must be a string, Uint8Array, or URL without null bytes/);
  });

  it('that is not valid JSON says what, without quoting the text around the mistake (short or cut with ...)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-companies-'));
    const padding = ' '.repeat(40);
    for (const [name, text] of [
      ['short.json', `{"companyKey": ${key}}`],
      ['long.json', `{${padding}"companies": [{"companyKey": ${key}}]${padding}${padding}}`],
      // V8 quotes the text whole when it is short, and marks a cut at one end only when it is cut there.
      ['tiny.json', '{"a": cb}'],
      ['cut-before.json', `{${padding}"a": cb}`],
      ['cut-after.json', `{"a": cb${padding}}`],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      let message = '';
      try {
        loadCompanies(file);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe(`${file} is not valid JSON: Unexpected token 'c'`);
    }
  });

  it('that is not valid YAML gives the first line of the parser\'s message only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-companies-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, `companies:\n  - companyKey: ${key}\n   callbackUrl: [\n`);
    let message = '';
    try {
      loadCompanies(file);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(new RegExp(`^${file} is not valid YAML: \\S`));
    expect(message).not.toContain('ck_test');
  });
});
