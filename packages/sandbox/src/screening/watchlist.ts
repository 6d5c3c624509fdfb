// The sandbox's screening list: several hundred clearly fictional persons and companies, built at start
// from name parts (every name is made of words like "Sample", "Test", "Mock", "Placeholder"), so that no
// real person can ever be "found". Everything about an entry (birthday, nationality, categories, the
// details) is derived from its position by a hash: the list is the same in every run and every sandbox.

export type DetailProperty = { propertyName: string; value: string[]; type: 'list' | 'string' | 'date' | 'url' };
export type DetailGroup = { groupName: string; details: { detailName: string; properties: DetailProperty[] }[] };

export type WatchlistEntry = {
  personId: string;
  entityType: 'Person' | 'Company';
  /** The name a search hit shows: first and last name of a person, the company's name. */
  name: string;
  topics: string[];
  firstName?: string;
  middleName?: string;
  lastName?: string;
  gender?: 'female' | 'male';
  /** YYYY-MM-DD, persons only. */
  birthdayTime?: string;
  nationality: string;
  extraDetails: DetailGroup[];
};

/** The entity categories of the reference (Part 2.10), as topics; "Wanted person" is a further topic shown. */
export const categories = [
  'Sanctioned entity',
  'Sanction-linked entity',
  'Counter-sanctioned entity',
  'Debarred entity',
  'Politician',
  'Close associate',
  'Person of interest',
  'Regulator action',
  'Regulator warning',
] as const;
const companyCategories = ['Sanctioned entity', 'Sanction-linked entity', 'Counter-sanctioned entity', 'Debarred entity', 'Regulator action', 'Regulator warning'];

const femaleNames = ['Testavia', 'Samplina', 'Mockette', 'Fixturella', 'Placida', 'Dummyra', 'Examplia', 'Specimena', 'Stubella', 'Fakira', 'Loremina', 'Ipsuma'];
const maleNames = ['Testovan', 'Samplor', 'Mockmir', 'Fixturo', 'Placidor', 'Dummyslav', 'Examplo', 'Specimenko', 'Stubarius', 'Fakhan', 'Loremos', 'Ipsumir'];
const middleNames = ['Quentin', 'Exempli', 'Nominus', 'Fictus', 'Gratia', 'Variabel'];
/** Surnames as [male form, female form]; some carry diacritics, to exercise transliteration. */
const surnames: [string, string][] = [
  ['Sampleov', 'Sampleova'],
  ['Testenko', 'Testenko'],
  ['Mockowski', 'Mockowska'],
  ['Fixturescu', 'Fixturescu'],
  ['Placeholderian', 'Placeholderian'],
  ['Dummyashvili', 'Dummyashvili'],
  ['Exampleson', 'Exampledóttir'],
  ['Specimenez', 'Specimenez'],
  ['Stubbington', 'Stubbington'],
  ['Tëstović', 'Tëstović'],
  ['Şampleoğlu', 'Şampleoğlu'],
  ['Mockó', 'Mockó'],
  ['Fakirov', 'Fakirova'],
  ['Müsterlein', 'Müsterlein'],
  ['Łoremczyk', 'Łoremczyk'],
  ['Ipsumbaum', 'Ipsumbaum'],
];
const companyStems = ['Examplecorp', 'Sampletrade', 'Mockline Shipping', 'Fixture Metals', 'Placeholder Petroleum', 'Dummy Arms', 'Testbank', 'Stub Logistics', 'Specimen Chemicals', 'Lorem Mining', 'Ipsum Capital', 'Fakeport Energy'];
const companyForms = ['LLC', 'Holdings', 'Ltd', 'JSC', 'GmbH', 'S.A.', 'Group', 'Trading FZE'];
const countries = ['Examplestan', 'Sampleland', 'Testonia', 'Mockovia', 'Fixturia', 'Placeholdia', 'Dummyland', 'Specimenia'];
const cities = ['Example City', 'Sampleton', 'Testburg', 'Mockville', 'Fixture Bay', 'Port Placeholder'];
const positions = ['Minister of Examples', 'Deputy Minister of Samples', 'Member of the Parliament of Testonia', 'Mayor of Mockville', 'Governor of Fixture Province', 'Ambassador to Sampleland', 'Chair of the Central Bank of Dummyland'];
const sanctionLists = ['Fictional Sanctions List (FSL)', 'Examplestan Consolidated Sanctions', 'Sampleland Asset Freeze Register'];
const regulators = ['Example Financial Conduct Authority', 'Testonia Securities Commission', 'Mockovia Banking Supervisor'];

/** FNV-1a: a stable 32-bit hash, so that every derived value depends only on the entry's position. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
const pick = <T>(list: readonly T[], seed: number): T => list[seed % list.length]!;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
function dateFrom(seed: number, fromYear: number, years: number): string {
  return `${fromYear + (seed % years)}-${pad(1 + ((seed >>> 8) % 12), 2)}-${pad(1 + ((seed >>> 16) % 28), 2)}`;
}

const text = (propertyName: string, value: string): DetailProperty => ({ propertyName, value: [value], type: 'string' });
const date = (propertyName: string, value: string): DetailProperty => ({ propertyName, value: [value], type: 'date' });
const list = (propertyName: string, value: string[]): DetailProperty => ({ propertyName, value, type: 'list' });
const url = (personId: string, path: string): DetailProperty => ({ propertyName: 'Source', value: [`https://watchlist.example/${path}/${personId}`], type: 'url' });

/** The detail groups of an entry's topics, besides its profile. */
function topicDetails(entry: WatchlistEntry, seed: number, related: string): DetailGroup[] {
  const groups: DetailGroup[] = [];
  const id = entry.personId;
  for (const topic of entry.topics) {
    if (topic === 'Politician') {
      const start = dateFrom(seed >>> 3, 1995, 25);
      groups.push({ groupName: 'Position occupied', details: [{ detailName: pick(positions, seed >>> 5), properties: [text('Position', pick(positions, seed >>> 5)), text('Country', entry.nationality), date('Start date', start)] }] });
    } else if (topic === 'Close associate') {
      groups.push({ groupName: 'Relationships', details: [{ detailName: 'Close associate of', properties: [text('Name', related), text('Relationship', pick(['business partner', 'adviser', 'relative'], seed >>> 7))] }] });
    } else if (topic === 'Sanctioned entity' || topic === 'Sanction-linked entity' || topic === 'Counter-sanctioned entity') {
      const properties = [date('Listed on', dateFrom(seed >>> 4, 2014, 11)), text('Program', pick(['Fictional Program A', 'Fictional Program B', 'Fictional Program C'], seed >>> 6)), list('Reasons', ['Fictional conduct for sandbox testing'])];
      if (topic === 'Sanction-linked entity') properties.push(text('Linked to', related), text('Link', 'Indirect subsidiary of a sanctioned entity'));
      if (topic === 'Counter-sanctioned entity') properties.push(text('Imposed by', pick(countries, seed >>> 9)));
      groups.push({ groupName: 'Sanctions', details: [{ detailName: pick(sanctionLists, seed >>> 2), properties: [...properties, url(id, 'sanctions')] }] });
    } else if (topic === 'Debarred entity') {
      const from = dateFrom(seed >>> 4, 2012, 10);
      groups.push({ groupName: 'Debarment', details: [{ detailName: 'Example Development Bank debarment', properties: [date('Debarred from', from), date('Debarred until', `${Number(from.slice(0, 4)) + 5}${from.slice(4)}`), text('Grounds', 'Fictional procurement misconduct'), url(id, 'debarments')] }] });
    } else if (topic === 'Regulator action' || topic === 'Regulator warning') {
      groups.push({ groupName: 'Regulatory', details: [{ detailName: `${topic}: ${pick(regulators, seed >>> 6)}`, properties: [date('Date', dateFrom(seed >>> 5, 2015, 10)), text('Summary', topic === 'Regulator action' ? 'Fictional fine for sandbox testing' : 'Fictional warning: unauthorised business'), url(id, 'regulatory')] }] });
    } else if (topic === 'Person of interest') {
      groups.push({ groupName: 'Person of interest', details: [{ detailName: 'Fictional Investigations Bureau', properties: [text('Reason', 'Named in a fictional investigation'), url(id, 'interest')] }] });
    } else {
      // 'Wanted person': every other topic has its branch above.
      groups.push({ groupName: 'Wanted notices', details: [{ detailName: 'Fictional Police Notice', properties: [list('Charges', ['Fictional fraud', 'Fictional forgery']), date('Issued', dateFrom(seed >>> 6, 2016, 9)), url(id, 'wanted')] }] });
    }
  }
  return groups;
}

function persons(): WatchlistEntry[] {
  const entries: WatchlistEntry[] = [];
  const all = [...femaleNames.map((name) => [name, 'female'] as const), ...maleNames.map((name) => [name, 'male'] as const)];
  for (const [f, [firstName, gender]] of all.entries()) {
    for (const [s, forms] of surnames.entries()) {
      const index = entries.length;
      const personId = `scr-person-${pad(index + 1, 4)}`;
      const seed = hash(personId);
      const lastName = gender === 'female' ? forms[1] : forms[0];
      const primary = categories[(f * surnames.length + s) % categories.length]!;
      const topics: string[] = [primary];
      if ((primary === 'Sanctioned entity' || primary === 'Person of interest') && seed % 5 === 0) topics.push('Wanted person');
      if (primary === 'Politician' && seed % 4 === 0) topics.push('Sanctioned entity');
      const entry: WatchlistEntry = {
        personId,
        entityType: 'Person',
        name: `${firstName} ${lastName}`,
        topics,
        firstName,
        ...(seed % 3 === 0 ? { middleName: pick(middleNames, seed >>> 11) } : {}),
        lastName,
        gender,
        birthdayTime: dateFrom(seed, 1940, 60),
        nationality: pick(countries, seed >>> 13),
        extraDetails: [],
      };
      const profile: DetailGroup = {
        groupName: 'Profile',
        details: [{ detailName: 'Profile', properties: [text('Full name', [firstName, entry.middleName, lastName].filter(Boolean).join(' ')), text('Gender', gender), date('Date of birth', entry.birthdayTime!), text('Place of birth', `${pick(cities, seed >>> 15)}, ${entry.nationality}`), text('Nationality', entry.nationality), url(personId, 'entities')] }],
      };
      entry.extraDetails.push(profile, ...topicDetails(entry, seed, `${pick(femaleNames, seed >>> 17)} ${pick(surnames, seed >>> 19)[1]}`));
      entries.push(entry);
    }
  }
  return entries;
}

function companies(): WatchlistEntry[] {
  const entries: WatchlistEntry[] = [];
  for (const [s, stem] of companyStems.entries()) {
    for (const [f, form] of companyForms.entries()) {
      const index = entries.length;
      const personId = `scr-company-${pad(index + 1, 4)}`;
      const seed = hash(personId);
      const topics = [companyCategories[(s * companyForms.length + f) % companyCategories.length]!];
      const entry: WatchlistEntry = { personId, entityType: 'Company', name: `${stem} ${form}`, topics, nationality: pick(countries, seed >>> 13), extraDetails: [] };
      const profile: DetailGroup = {
        groupName: 'Profile',
        details: [{ detailName: 'Profile', properties: [text('Name', entry.name), text('Registration country', entry.nationality), text('Registration number', `FX${pad(seed % 1_000_000, 6)}`), date('Incorporation date', dateFrom(seed, 1980, 40)), url(personId, 'entities')] }],
      };
      entry.extraDetails.push(profile, ...topicDetails(entry, seed, `${pick(companyStems, seed >>> 17)} Holdings`));
      entries.push(entry);
    }
  }
  return entries;
}

/** Every entry: 384 persons (24 first names by 16 surnames), then 96 companies. */
export const watchlist: readonly WatchlistEntry[] = [...persons(), ...companies()];

const byId = new Map(watchlist.map((entry) => [entry.personId, entry]));
export const watchlistEntry = (personId: string): WatchlistEntry | undefined => byId.get(personId);
