import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jpegSize } from '../media/jpeg.js';
import { samplePersons } from '../persons.js';
import { codeOf, startTestSandbox } from '../sandbox.test-helper.js';
import { jpegMagic, startsWith } from './files.test-helper.js';
import { responseProblems } from './responses.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

/** The error body of a rejected call (these operations put the code under `error`). */
async function errorBody(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return (error as { body?: unknown }).body;
  }
  return 'resolved';
}

describe('getTrustedDatabaseRecord', () => {
  it("gives a sample person's record for their personal number", async () => {
    const person = samplePersons[1]!;
    const body = await t.a.getTrustedDatabaseRecord({ privateNumber: person.personalNumber, birthdayTime: `${person.birthday}T00:00:00.000Z`, issuingState: 'GE' });
    expect(responseProblems('current', 'getTrustedDatabaseRecord', body)).toEqual([]);
    expect(body.result).toMatchObject({
      privateNumber: person.personalNumber,
      firstName: person.firstName,
      lastName: person.lastName,
      birthdayTime: `${person.birthday}T00:00:00.000Z`,
      genderId: person.sex === 'F' ? '2' : '1',
      document: { number: person.documentNumber, issueDate: `${person.issued}T00:00:00.000Z`, expireDate: `${person.expires}T00:00:00.000Z`, status: 'Valid' },
      address: { activeAddress: person.address },
    });
    expect(startsWith(Buffer.from(body.result.photo!.photo!, 'base64'), jpegMagic)).toBe(true);
  });

  it('gives any other number a stable record under that number', async () => {
    const first = await t.a.getTrustedDatabaseRecord({ privateNumber: '99999999999' });
    expect(responseProblems('current', 'getTrustedDatabaseRecord', first)).toEqual([]);
    expect(first.result.privateNumber).toBe('99999999999');
    expect(samplePersons.map((p) => p.lastName)).toContain(first.result.lastName);
    expect(await t.a.getTrustedDatabaseRecord({ privateNumber: '99999999999' })).toEqual(first);
  });

  it("without a private number looks up the session's person, or the first sample person", async () => {
    const { id } = await t.a.begin({});
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    const kyc = await t.legacyA.getResult({ session_token: id });
    const ofSession = await t.a.getTrustedDatabaseRecord({ sessionId: id });
    expect(ofSession.result).toMatchObject({ privateNumber: kyc.person?.personal_number, firstName: kyc.person?.first_name, lastName: kyc.person?.last_name });
    const bare = await t.a.getTrustedDatabaseRecord({});
    expect(responseProblems('current', 'getTrustedDatabaseRecord', bare)).toEqual([]);
    expect(bare.result.privateNumber).toBe(samplePersons[0]!.personalNumber);
  });

  it('checks the session when one is sent', async () => {
    const { id } = await t.a.begin({});
    await expect(t.a.getTrustedDatabaseRecord({ privateNumber: '01001012345', sessionId: id })).resolves.toHaveProperty('result');
    const { id: ofB } = await t.b.begin({});
    expect(await errorBody(t.a.getTrustedDatabaseRecord({ privateNumber: '01001012345', sessionId: ofB }))).toEqual({ error: 'wrong-parameters' });
    expect(await errorBody(t.a.getTrustedDatabaseRecord({ privateNumber: '01001012345', sessionId: 'sess_nope' }))).toEqual({ error: 'wrong-parameters' });
  });

  it('refuses a blank private number or a bad field', async () => {
    expect(await errorBody(t.a.getTrustedDatabaseRecord({ privateNumber: '  ' }))).toEqual({ error: 'wrong-parameters' });
    expect(await codeOf(t.a.getTrustedDatabaseRecord({ privateNumber: '01001012345', birthdayTime: 'yesterday' }))).toBe('wrong-parameters');
  });

  it('answers no-trusted-database-sources to a company without a source', async () => {
    expect(await errorBody(t.b.getTrustedDatabaseRecord({ privateNumber: '01001012345' }))).toEqual({ error: 'no-trusted-database-sources' });
  });
});

describe('a trusted-database record, whole', () => {
  const john = samplePersons[1]!; // JOHN SPECIMEN, M, born 1985-11-23 in Batumi, document 13ID00788 valid until 2029-02-01

  it('is the person of the registry as the reference shows it: names, birth, citizenship, document, address', async () => {
    const { result } = await t.a.getTrustedDatabaseRecord({ privateNumber: john.personalNumber });
    const { photo, ...rest } = result;
    expect(rest).toEqual({
      privateNumber: '01002023456',
      lastName: 'SPECIMEN',
      firstName: 'JOHN',
      lastNameEn: 'SPECIMEN',
      firstNameEn: 'JOHN',
      birthdayTime: '1985-11-23T00:00:00.000Z',
      genderId: '1',
      birthPlaceCountry: 'Georgia',
      birthPlaceCountryCode: 'GE',
      birthPlaceRaion: 'BATUMI',
      citizenshipCountry: 'Georgia',
      citizenshipCountryCode: 'GE',
      personStatus: 'Active',
      personStatusId: '1',
      document: { docTypeId: '1', docTypeName: 'ID card', number: '13ID00788', issueDate: '2019-02-01T00:00:00.000Z', issuerName: 'PUBLIC SERVICE HALL', expireDate: '2029-02-01T00:00:00.000Z', statusId: '1', status: 'Valid' },
      address: {
        activeAddressAddressId: '939211564',
        activeAddressAddressSource: 'Registry',
        oaId: '2658',
        addrStatusId: '1',
        addressStatus: 'Active',
        activeAddress: '22 Sample Avenue, Batumi',
        activeAddressRaion: 'Batumi',
        activeAddressRegion: 'Batumi',
        activeAddressCity: 'Batumi',
        activeAddressCountry: 'Georgia',
      },
    });
    // The address IDs are made up from the number asked for, the same in every version.
    // The photo: a real JPEG of a document photo's shape, labelled with the number asked for.
    const jpeg = Buffer.from(photo!.photo!, 'base64');
    expect(jpegSize(jpeg)).toEqual({ width: 96, height: 120 });
    expect(jpeg.includes(Buffer.from('idv-sandbox trusted-database photo 01002023456'))).toBe(true);
  });

  it("gives a woman genderId 2, and other numbers other address IDs", async () => {
    const jane = (await t.a.getTrustedDatabaseRecord({ privateNumber: samplePersons[0]!.personalNumber })).result;
    expect(jane.genderId).toBe('2');
    const other = (await t.a.getTrustedDatabaseRecord({ privateNumber: '12345678901' })).result;
    expect(other.address).toMatchObject({ activeAddressAddressId: '363679349', oaId: '5581' });
  });

  it('shows the document expired from its expiry day on', async () => {
    const jane = samplePersons[0]!; // expires 2031-06-14
    const status = async () => (await t.a.getTrustedDatabaseRecord({ privateNumber: jane.personalNumber })).result.document;
    t.clock.set(Date.parse('2031-06-14T00:00:00.000Z') - 1);
    expect(await status()).toMatchObject({ statusId: '1', status: 'Valid' });
    t.clock.set(Date.parse('2031-06-14T00:00:00.000Z'));
    expect(await status()).toMatchObject({ statusId: '2', status: 'Expired' });
  });
});

describe('checkInRegistry', () => {
  const path = (registry: string) => ({ path: { registry } });

  it("answers a stable record for one of the company's registries", async () => {
    const body = await t.a.checkInRegistry({ registrationNumber: '12345678' } as never, path('companies-house'));
    expect(responseProblems('current', 'checkInRegistry', body)).toEqual([]);
    expect(body.result).toMatchObject({ registry: 'companies-house', found: true, registrationNumber: '12345678', query: { registrationNumber: '12345678' } });
    expect(JSON.stringify(body)).not.toContain('ck_test');
    expect(await t.a.checkInRegistry({ registrationNumber: '12345678' } as never, path('companies-house'))).toEqual(body);
    const other = await t.a.checkInRegistry({ companyName: 'Anything Ltd' } as never, path('companies-house'));
    expect(other.result).toMatchObject({ companyName: 'Anything Ltd', registrationNumber: expect.stringMatching(/^\d{8}$/) });
  });

  it('answers no-<registry>-source for a registry the company has no source for', async () => {
    expect(await errorBody(t.a.checkInRegistry({}, path('other-registry')))).toEqual({ error: 'no-other-registry-source' });
    expect(await errorBody(t.b.checkInRegistry({}, path('companies-house')))).toEqual({ error: 'no-companies-house-source' });
  });

  it('answers wrong-parameters for a registry name that is not lower-case letters, digits and dashes', async () => {
    expect(await errorBody(t.a.checkInRegistry({}, path('Companies_House')))).toEqual({ error: 'wrong-parameters' });
    expect(await errorBody(t.a.checkInRegistry({}, path('a b')))).toEqual({ error: 'wrong-parameters' });
  });
});

describe('checkInRegistry, what it makes up', () => {
  const path = { path: { registry: 'companies-house' } };

  it('names one of the sample companies and an 8-digit number when the request gives neither, the same for the same fields in any order', async () => {
    const first = await t.a.checkInRegistry({ country: 'GB', city: 'London' } as never, path);
    expect(first.result).toEqual({ registry: 'companies-house', found: true, companyName: 'Northwind Sample Ltd', registrationNumber: '31495072', status: 'active', query: { country: 'GB', city: 'London' } });
    expect((await t.a.checkInRegistry({ city: 'London', country: 'GB' } as never, path)).result).toMatchObject({ companyName: first.result.companyName, registrationNumber: first.result.registrationNumber });
    expect((await t.a.checkInRegistry({ companyName: '', registrationNumber: '' } as never, path)).result).toMatchObject({ companyName: expect.stringMatching(/^(Northwind Sample Ltd|Example Holdings Ltd|Placeholder Trading LLC|Fixture Logistics JSC)$/), registrationNumber: expect.stringMatching(/^\d{8}$/) });
  });
});

describe('checkInRegistry, across requests', () => {
  it('names each of the four sample companies for some request, and pads a registration number to 8 digits', async () => {
    const names = new Set<string>();
    let padded: string | undefined;
    for (let i = 0; i < 80 && (names.size < 4 || padded === undefined); i++) {
      const { result } = (await t.a.checkInRegistry({ city: `City ${i}` } as never, { path: { registry: 'companies-house' } })) as { result: { companyName: string; registrationNumber: string } };
      names.add(result.companyName);
      if (result.registrationNumber.startsWith('0')) padded = result.registrationNumber;
    }
    expect([...names].sort()).toEqual(['Example Holdings Ltd', 'Fixture Logistics JSC', 'Northwind Sample Ltd', 'Placeholder Trading LLC']);
    expect(padded).toMatch(/^0\d{7}$/);
  });
});
