import { describe, expect, it } from 'vitest';
import { categories, watchlist, watchlistEntry } from './watchlist.js';

describe('the bundled watchlist', () => {
  it('holds several hundred persons and companies with unique IDs and unique names', () => {
    expect(watchlist.length).toBeGreaterThanOrEqual(300);
    expect(new Set(watchlist.map((e) => e.personId)).size).toBe(watchlist.length);
    // Hits of equal score are ordered by name alone (search.ts), which is a full order only while no two
    // entries share a name.
    expect(new Set(watchlist.map((e) => e.name)).size).toBe(watchlist.length);
    expect(watchlist.filter((e) => e.entityType === 'Person').length).toBeGreaterThan(200);
    expect(watchlist.filter((e) => e.entityType === 'Company').length).toBeGreaterThan(50);
    expect(watchlistEntry(watchlist[7]!.personId)).toBe(watchlist[7]);
  });

  it('covers every category of the reference, for persons and for companies where they apply', () => {
    const topics = (type: string) => new Set(watchlist.filter((e) => e.entityType === type).flatMap((e) => e.topics));
    for (const category of categories) expect(topics('Person')).toContain(category);
    expect(topics('Person')).toContain('Wanted person');
    for (const category of ['Sanctioned entity', 'Sanction-linked entity', 'Counter-sanctioned entity', 'Debarred entity', 'Regulator action', 'Regulator warning']) expect(topics('Company')).toContain(category);
  });

  it('gives persons a birthday, gender and profile, and companies neither birthday nor gender', () => {
    for (const entry of watchlist) {
      expect(entry.extraDetails[0]!.groupName).toBe('Profile');
      if (entry.entityType === 'Person') {
        expect(entry.birthdayTime).toMatch(/^(19[4-9]\d)-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])$/);
        expect(['female', 'male']).toContain(entry.gender);
        expect(entry.name).toBe(`${entry.firstName} ${entry.lastName}`);
      } else {
        expect(entry.birthdayTime ?? entry.gender ?? entry.firstName).toBeUndefined();
      }
      for (const property of entry.extraDetails.flatMap((g) => g.details.flatMap((d) => d.properties))) {
        if (property.type === 'url') expect(property.value[0]).toMatch(/^https:\/\/watchlist\.example\//);
        if (property.type === 'date') expect(property.value[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
  });

  it('has a detail group for each topic of an entry', () => {
    const groupOf: Record<string, string> = { Politician: 'Position occupied', 'Close associate': 'Relationships', 'Sanctioned entity': 'Sanctions', 'Debarred entity': 'Debarment', 'Regulator warning': 'Regulatory', 'Wanted person': 'Wanted notices' };
    for (const entry of watchlist) {
      for (const topic of entry.topics) if (groupOf[topic]) expect(entry.extraDetails.map((g) => g.groupName)).toContain(groupOf[topic]);
    }
  });
});
