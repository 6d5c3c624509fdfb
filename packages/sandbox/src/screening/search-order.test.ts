// The screening search on its own (README "Screening"): hits at or above the threshold, best first, then by
// name; persons born before birthdayTimeFrom left out, companies kept; and the bundled list the same in
// every version, so that the hits a tester's suite expects stay where they were.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { searchWatchlist } from './search.js';
import { watchlist } from './watchlist.js';

const summary = (fullName: string, threshold: number, bornFrom?: string) => searchWatchlist(fullName, threshold, bornFrom).map((hit) => [hit.entry.personId, hit.entry.name, hit.score]);

describe('searchWatchlist', () => {
  it('gives the hits at or above the threshold, best first, with one decimal', () => {
    expect(summary('Testavia Sampleova', 80)).toEqual([
      ['scr-person-0001', 'Testavia Sampleova', 100],
      ['scr-person-0011', 'Testavia Şampleoğlu', 89],
      ['scr-person-0193', 'Testovan Sampleov', 84.2],
      ['scr-person-0218', 'Samplor Tëstović', 80.5],
    ]);
    expect(summary('Testavia Sampleova', 89)).toHaveLength(2); // the threshold itself counts
    expect(summary('Testavia Sampleova', 89.1)).toHaveLength(1);
  });

  it('orders equal scores by name', () => {
    expect(summary('Testbank', 80)).toEqual([
      ['scr-company-0054', 'Testbank S.A.', 88.9],
      ['scr-company-0052', 'Testbank JSC', 84.2],
      ['scr-company-0049', 'Testbank LLC', 84.2],
      ['scr-company-0051', 'Testbank Ltd', 84.2],
      ['scr-company-0053', 'Testbank GmbH', 80],
    ]);
    expect(summary('Sampleova', 75)).toEqual([
      ['scr-person-0145', 'Fakira Sampleova', 75],
      ['scr-person-0177', 'Ipsuma Sampleova', 75],
    ]);
  });

  it('leaves out persons born before birthdayTimeFrom, keeps those born that day, and keeps companies', () => {
    expect(summary('Testavia Sampleova', 80, '1950-01-01').map(([id]) => id)).toEqual(['scr-person-0001', 'scr-person-0193', 'scr-person-0218']);
    expect(summary('Testavia Sampleova', 100, '1997-01-12')).toHaveLength(1);
    expect(summary('Testavia Sampleova', 100, '1997-01-13')).toEqual([]);
    expect(summary('Testbank', 80, '2100-01-01')).toHaveLength(5);
  });

  it('finds nothing for a name without letters or digits', () => {
    expect(searchWatchlist(' -- ', 0)).toEqual([]);
    expect(searchWatchlist('x', 0).length).toBe(watchlist.length); // threshold 0: everything, for contrast
  });
});

describe('the bundled watchlist', () => {
  it('is 384 persons, then 96 companies, in the same order with the same details in every version', () => {
    expect(watchlist.filter((e) => e.entityType === 'Person')).toHaveLength(384);
    expect(watchlist.slice(384).every((e) => e.entityType === 'Company')).toBe(true);
    expect(watchlist[0]).toEqual({
      personId: 'scr-person-0001',
      entityType: 'Person',
      name: 'Testavia Sampleova',
      topics: ['Sanctioned entity'],
      firstName: 'Testavia',
      middleName: 'Quentin',
      lastName: 'Sampleova',
      gender: 'female',
      birthdayTime: '1997-01-12',
      nationality: 'Specimenia',
      extraDetails: [
        {
          groupName: 'Profile',
          details: [
            {
              detailName: 'Profile',
              properties: [
                { propertyName: 'Full name', value: ['Testavia Quentin Sampleova'], type: 'string' },
                { propertyName: 'Gender', value: ['female'], type: 'string' },
                { propertyName: 'Date of birth', value: ['1997-01-12'], type: 'date' },
                { propertyName: 'Place of birth', value: ['Mockville, Specimenia'], type: 'string' },
                { propertyName: 'Nationality', value: ['Specimenia'], type: 'string' },
                { propertyName: 'Source', value: ['https://watchlist.example/entities/scr-person-0001'], type: 'url' },
              ],
            },
          ],
        },
        {
          groupName: 'Sanctions',
          details: [
            {
              detailName: 'Sampleland Asset Freeze Register',
              properties: [
                { propertyName: 'Listed on', value: ['2016-07-19'], type: 'date' },
                { propertyName: 'Program', value: ['Fictional Program B'], type: 'string' },
                { propertyName: 'Reasons', value: ['Fictional conduct for sandbox testing'], type: 'list' },
                { propertyName: 'Source', value: ['https://watchlist.example/sanctions/scr-person-0001'], type: 'url' },
              ],
            },
          ],
        },
      ],
    });
    expect(watchlist[384]!.extraDetails[0]!.details[0]!.properties.map((p) => p.value[0])).toEqual(['Examplecorp LLC', 'Sampleland', 'FX245655', '1995-06-17', 'https://watchlist.example/entities/scr-company-0001']);
    // Every entry, whole: a change to the bundled list (deliberate or not) changes this digest; a
    // deliberate one is a change testers see in their hits and deserves a changeset.
    expect(createHash('sha256').update(JSON.stringify(watchlist)).digest('hex')).toBe('f3cbd68343964bb2a40bc9e1466921df106025f061e771e998bd376c521d74c2');
  });
});
