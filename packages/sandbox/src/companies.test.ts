// A configuration file with a mistake says which field is wrong and what was probably meant, and never
// prints a key.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { companiesFrom, loadCompanies } from './companies.js';

const key = 'ck_test_config_errors_0000';
const problemsOf = (config: unknown) => {
  try {
    companiesFrom(config);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('configuration errors', () => {
  it('name a misspelled field and suggest the known one', () => {
    const message = problemsOf({ companies: [{ companyKey: key, callbackURL: 'http://127.0.0.1:3000/cb' }] });
    expect(message).toContain('companies[0].callbackURL is not a known field; did you mean callbackUrl?');
    expect(message).not.toContain('ck_test');
  });

  it('name fields deep inside, missing ones and wrong types', () => {
    const message = problemsOf({
      companys: [],
      companies: [
        { companyKey: key, screeningPaid: 'yes' },
        { name: 'No key', sessionConfigs: [{ id: 'cfg', name: 'x', steps: [], additionalInfoRequest: true }] },
      ],
    });
    expect(message).toContain('companys is not a known field; did you mean companies?');
    expect(message).toContain('companies[0].screeningPaid must be boolean');
    expect(message).toContain('companies[1].companyKey is missing');
    expect(message).toContain('companies[1].sessionConfigs[0].additionalInfoRequest is not a known field; did you mean additionalInformationRequest?');
    expect(message).not.toContain('ck_test');
  });

  it('suggest nothing for a field unlike any known one, but list the known ones', () => {
    expect(problemsOf({ companies: [{ companyKey: key, zzz: 1 }] })).toMatch(/companies\[0\]\.zzz is not a known field \(known: name, companyKey, callbackUrl, /);
  });

  it('say which companies share a key without printing it', () => {
    const message = problemsOf({ companies: [{ companyKey: key }, { companyKey: key }] });
    expect(message).toContain('companies[1].companyKey is the same as companies[0].companyKey');
    expect(message).not.toContain('ck_test');
  });

  it('name the file that cannot be read or parsed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-config-'));
    expect(() => loadCompanies(join(dir, 'missing.yaml'))).toThrow(`Cannot read the configuration file ${join(dir, 'missing.yaml')}: no such file`);
    writeFileSync(join(dir, 'broken.json'), `{"companies": [{"companyKey": "${key}",]}`);
    expect(() => loadCompanies(join(dir, 'broken.json'))).toThrow(new RegExp(`^${join(dir, 'broken.json')} is not valid JSON: `));
    writeFileSync(join(dir, 'bare.json'), `{"companies": [{"companyKey": ${key}}]}`);
    expect(() => loadCompanies(join(dir, 'bare.json'))).toThrow(`${join(dir, 'bare.json')} is not valid JSON: Unexpected token 'c'`);
    expect(() => loadCompanies(join(dir, 'bare.json'))).not.toThrow(/ck_test/);
    writeFileSync(join(dir, 'broken.yaml'), `companies:\n  - companyKey: ${key}\n   callbackUrl: [\n`);
    expect(() => loadCompanies(join(dir, 'broken.yaml'))).toThrow(new RegExp(`^${join(dir, 'broken.yaml')} is not valid YAML: `));
    writeFileSync(join(dir, 'typo.yaml'), `companies:\n  - companyKey: ${key}\n    callbackURL: http://127.0.0.1:3000/cb\n`);
    const message = (() => {
      try {
        loadCompanies(join(dir, 'typo.yaml'));
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toBe(`Invalid sandbox configuration in ${join(dir, 'typo.yaml')}:\n- companies[0].callbackURL is not a known field; did you mean callbackUrl?`);
  });
});
