// The blacklist's two rules on their own (README "Blacklist duplicates" and "Blacklist check"): which
// records are the same person, and which record a finished KYC session's person matches.
import { describe, expect, it } from 'vitest';
import { dayOf, identityOf } from './blacklist-identity.js';
import { matchingRecord } from './blacklist-match.js';
import { samplePersons } from './persons.js';
import type { BlacklistRecord } from './state.js';

describe('dayOf: the calendar day a birthday names', () => {
  it('is the date as written, whatever time and offset follow', () => {
    expect(dayOf('1990-04-01')).toBe('1990-04-01');
    expect(dayOf('1990-04-01T23:30:00.000-05:00')).toBe('1990-04-01');
    expect(dayOf('1990-04-01T00:30:00+02:00')).toBe('1990-04-01');
  });

  it('is nothing for a date that does not exist or is not at the start', () => {
    expect(dayOf('1990-02-30')).toBeUndefined(); // no such day
    expect(dayOf('1990-13-01')).toBeUndefined();
    expect(dayOf('2023-02-29T00:00:00Z')).toBeUndefined();
    expect(dayOf('01/04/1990')).toBeUndefined();
    expect(dayOf('x1990-04-01')).toBeUndefined();
    expect(dayOf('1990-04-01 and more')).toBeUndefined(); // not a date-time at all
    expect(dayOf('2024-02-29')).toBe('2024-02-29'); // a leap day
  });
});

describe('identityOf: the duplicate rule', () => {
  const jane = { reason: 'Fraud', firstName: 'Jane', lastName: 'Roe', personalNumber: '01001012345', documentNumber: '12AB34567', birthday: '1990-04-01T00:00:00Z' };

  it('is the same whatever the case, spaces, time of day, offset, reason or notes', () => {
    expect(identityOf({ ...jane, reason: 'Another', notes: 'n', firstName: ' JANE ', lastName: 'roe', documentNumber: '12ab34567 ', birthday: '1990-04-01T23:59:00-11:00' })).toBe(identityOf(jane));
  });

  it('differs when any one identifying field differs, or is absent from one record only', () => {
    const fields = ['firstName', 'lastName', 'personalNumber', 'documentNumber'] as const;
    for (const field of fields) {
      expect(identityOf({ ...jane, [field]: 'other' })).not.toBe(identityOf(jane));
      const { [field]: _dropped, ...without } = jane;
      expect(identityOf(without)).not.toBe(identityOf(jane));
    }
    expect(identityOf({ ...jane, birthday: '1990-04-02T00:00:00Z' })).not.toBe(identityOf(jane));
    const { birthday: _birthday, ...noBirthday } = jane;
    expect(identityOf(noBirthday)).not.toBe(identityOf(jane));
  });

  it('does not let one field run into the next', () => {
    expect(identityOf({ reason: 'r', firstName: 'Jane Roe' })).not.toBe(identityOf({ reason: 'r', firstName: 'Jane', lastName: 'Roe' }));
    expect(identityOf({ reason: 'r', firstName: 'X1' })).not.toBe(identityOf({ reason: 'r', lastName: 'X1' }));
  });
});

describe('matchingRecord: the automatic blacklist check', () => {
  const person = samplePersons[0]!; // JANE SAMPLE, born 1990-04-01
  const record = (fields: Partial<BlacklistRecord>): BlacklistRecord => ({ id: `blk_${Object.keys(fields).join('-')}`, reason: 'r', ...fields });

  it('matches on the document number or the personal number alone, ignoring case and spaces', () => {
    expect(matchingRecord(person, [record({ documentNumber: ` ${person.documentNumber.toLowerCase()} ` })])).toBeDefined();
    expect(matchingRecord(person, [record({ personalNumber: person.personalNumber, firstName: 'Someone', lastName: 'Else' })])).toBeDefined();
  });

  it('matches on first and last name together, with the birthday when the record has one', () => {
    expect(matchingRecord(person, [record({ firstName: 'jane', lastName: ' Sample' })])).toBeDefined();
    expect(matchingRecord(person, [record({ firstName: 'Jane', lastName: 'Sample', birthday: '1990-04-01T00:00:00Z' })])).toBeDefined();
    expect(matchingRecord(person, [record({ firstName: 'Jane', lastName: 'Sample', birthday: '1990-04-02T00:00:00Z' })])).toBeUndefined();
  });

  it('does not match on one name alone, another person, or fields neither side has', () => {
    expect(matchingRecord(person, [record({ firstName: 'Jane' })])).toBeUndefined();
    expect(matchingRecord(person, [record({ lastName: 'Sample' })])).toBeUndefined();
    expect(matchingRecord(person, [record({ firstName: 'Jane', lastName: 'Specimen' })])).toBeUndefined();
    expect(matchingRecord(person, [record({ documentNumber: 'OTHER1', personalNumber: 'OTHER2' })])).toBeUndefined();
    expect(matchingRecord(person, [record({ birthday: '1990-04-01T00:00:00Z' })])).toBeUndefined();
    expect(matchingRecord({ ...person, documentNumber: undefined as unknown as string }, [record({ notes: 'n' })])).toBeUndefined();
  });

  it('gives the first matching record of the list', () => {
    const records = [record({ firstName: 'Other', lastName: 'One' }), { ...record({ documentNumber: person.documentNumber }), id: 'blk_first' }, { ...record({ personalNumber: person.personalNumber }), id: 'blk_second' }];
    expect(matchingRecord(person, records)?.id).toBe('blk_first');
  });
});
