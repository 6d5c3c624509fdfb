// Trusted-database records and registry checks. Both answer from the sample people and companies of the
// sandbox, deterministically from what the request asks for, when the company has the source configured
// (companies.ts: trustedDatabase, registries). Their errors go under the `error` key (the server picks
// the key from the operation's schema).
import { refuse } from '../codes.js';
import type { Context, TypedHandlers } from '../context.js';
import { ApiError } from '../errors.js';
import { hashNumber } from '../media/hash.js';
import { solidJpeg } from '../media/jpeg.js';
import { personFor, samplePersons, type SamplePerson } from '../persons.js';
import { personOf } from '../results.js';

const isoTime = (date: string) => `${date}T00:00:00.000Z`;
const country = { name: 'Georgia', code: 'GE' };

/** The record of 2.14 for `person`, reported under `privateNumber` (the number asked for). */
function trustedRecord(context: Context, person: SamplePerson, privateNumber: string) {
  const city = person.address.split(', ')[1] ?? 'Tbilisi';
  const expired = Date.parse(isoTime(person.expires)) <= context.clock.now();
  return {
    privateNumber,
    lastName: person.lastName,
    firstName: person.firstName,
    lastNameEn: person.lastName,
    firstNameEn: person.firstName,
    birthdayTime: isoTime(person.birthday),
    genderId: person.sex === 'F' ? '2' : '1',
    birthPlaceCountry: country.name,
    birthPlaceCountryCode: country.code,
    birthPlaceRaion: person.birthPlace,
    citizenshipCountry: country.name,
    citizenshipCountryCode: country.code,
    personStatus: 'Active',
    personStatusId: '1',
    photo: { photo: Buffer.from(solidJpeg(96, 120, `idv-sandbox trusted-database photo ${privateNumber}`)).toString('base64') },
    document: {
      docTypeId: '1',
      docTypeName: 'ID card',
      number: person.documentNumber,
      issueDate: isoTime(person.issued),
      issuerName: 'PUBLIC SERVICE HALL',
      expireDate: isoTime(person.expires),
      statusId: expired ? '2' : '1',
      status: expired ? 'Expired' : 'Valid',
    },
    address: {
      activeAddressAddressId: String(100_000_000 + (hashNumber(['address', privateNumber]) % 900_000_000)),
      activeAddressAddressSource: 'Registry',
      oaId: String(1000 + (hashNumber(['oa', privateNumber]) % 9000)),
      addrStatusId: '1',
      addressStatus: 'Active',
      activeAddress: person.address,
      activeAddressRaion: city,
      activeAddressRegion: city,
      activeAddressCity: city,
      activeAddressCountry: country.name,
    },
  };
}

const sampleCompanies = ['Northwind Sample Ltd', 'Example Holdings Ltd', 'Placeholder Trading LLC', 'Fixture Logistics JSC'];

export const registryHandlers: TypedHandlers = {
  /**
   * Our choices. The person looked up is the one of `privateNumber`: a sample person's personal number
   * gives that person's record, any other number a sample person's data under the number asked for.
   * Without a privateNumber (the reference marks no field required) it is the person of `sessionId`, and
   * without either the first sample person. A blank privateNumber, or a `sessionId` that is not one of the
   * company's sessions, is `wrong-parameters`. birthdayTime and issuingState are not checked.
   */
  async getTrustedDatabaseRecord(context) {
    if (!context.company.trustedDatabase) throw new ApiError('no-trusted-database-sources');
    const { privateNumber, sessionId } = context.body;
    if (privateNumber !== undefined && (typeof privateNumber !== 'string' || privateNumber.trim() === '')) refuse(context, 'wrong-parameters');
    const session = sessionId === undefined ? undefined : ((await context.state.sessions.get(context.company.companyKey, String(sessionId))) ?? refuse(context, 'wrong-parameters'));
    const person =
      privateNumber !== undefined
        ? (samplePersons.find((p) => p.personalNumber === privateNumber) ?? personFor(privateNumber))
        : session
          ? personOf(session)
          : samplePersons[0]!;
    return { json: { result: trustedRecord(context, person, privateNumber ?? person.personalNumber) } };
  },

  /**
   * `/check-in-<registry>`: the registry must be one of the company's (`no-<registry>-source` otherwise)
   * and a lower-case name (`wrong-parameters` otherwise, as the code could not be spelled). Our choice of
   * answer: `{registry, found, companyName, registrationNumber, status, query}`, where `query` echoes the
   * request's fields except the company key, and the figures come from a hash of them.
   */
  checkInRegistry(context) {
    const registry = context.params.registry ?? '';
    if (!/^[a-z0-9-]+$/.test(registry)) refuse(context, 'wrong-parameters');
    if (!context.company.registries.includes(registry)) throw new ApiError(`no-${registry}-source`);
    const query: Record<string, unknown> = Object.fromEntries(Object.entries(context.body).filter(([name]) => name !== 'companyKey'));
    const seed = JSON.stringify(Object.entries(query).sort(([a], [b]) => a.localeCompare(b)));
    const hash = hashNumber(['registry', registry, seed]);
    const asked = (name: string) => (typeof query[name] === 'string' && query[name] !== '' ? (query[name] as string) : undefined);
    return {
      json: {
        result: {
          registry,
          found: true,
          companyName: asked('companyName') ?? sampleCompanies[hash % sampleCompanies.length],
          registrationNumber: asked('registrationNumber') ?? String(hash % 100_000_000).padStart(8, '0'),
          status: 'active',
          query,
        },
      },
    };
  },
};
