import { describe, expect, it } from 'vitest';
import { identityOf } from './blacklist-identity.js';

describe('identityOf', () => {
  it('is the same for the same person written differently, and for the record made from those fields', () => {
    const fields = { reason: 'Fraud', firstName: ' Jane', lastName: 'ROE ', documentNumber: '12ab34567', birthday: '1990-04-01T23:30:00-05:00' };
    const other = { reason: 'Another', firstName: 'jane', lastName: 'roe', documentNumber: '12AB34567', birthday: '1990-04-01T00:00:00Z' };
    expect(identityOf(fields)).toBe(identityOf(other));
    expect(identityOf({ id: 'blk_1', ...fields } as Parameters<typeof identityOf>[0])).toBe(identityOf(other));
  });

  it('follows every identifying field of the record asked about, also of a record changed since it was last asked', () => {
    const record: Record<string, string> = { reason: 'r', firstName: 'Jane', lastName: 'Roe' };
    const first = identityOf(record as never);
    for (const field of ['firstName', 'lastName', 'personalNumber', 'documentNumber']) {
      const changed = { ...record, [field]: 'Other' };
      expect(identityOf(changed as never)).not.toBe(first);
      expect(identityOf(record as never)).toBe(first);
    }
    record.birthday = '1990-04-01T00:00:00Z';
    const withBirthday = identityOf(record as never);
    expect(withBirthday).not.toBe(first);
    record.birthday = '1990-04-02T00:00:00Z';
    expect(identityOf(record as never)).not.toBe(withBirthday);
    delete record.birthday;
    expect(identityOf(record as never)).toBe(first);
  });

  it('tells apart a field that is absent from one that is blank, and an invalid birthday from none', () => {
    expect(identityOf({ reason: 'r', firstName: 'Jane' })).toBe(JSON.stringify(['jane', '', '', '', '']));
    expect(identityOf({ reason: 'r', firstName: 'Jane', birthday: 'not a date' })).toBe(JSON.stringify(['jane', '', '', '', null]));
  });
});
