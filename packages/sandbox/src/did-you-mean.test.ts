// "did you mean X?" for a misspelled field of a configuration file or a flag of idv-trigger (README: a
// configuration file with a mistake names the field and what it probably meant).
import { describe, expect, it } from 'vitest';
import { didYouMean, nearest } from './nearest.js';

describe('nearest', () => {
  it('names the known name a typo or a change of case came from', () => {
    expect(nearest('callbackURL', ['callbackApiKey', 'callbackUrl', 'companyKey'])).toBe('callbackUrl');
    expect(nearest('COMPANYKEY', ['callbackUrl', 'companyKey'])).toBe('companyKey');
    expect(nearest('sesionConfigs', ['name', 'sessionConfigs'])).toBe('sessionConfigs');
  });

  it('picks the closest of several, the first listed on a tie', () => {
    expect(nearest('abcd', ['abxy', 'abcx', 'abcd'])).toBe('abcd');
    expect(nearest('abcd', ['abcx', 'abcy'])).toBe('abcx');
    expect(nearest('abcd', ['abcy', 'abcx'])).toBe('abcy');
  });

  it('allows two edits, or one in three characters of a longer name, and no more', () => {
    expect(nearest('ab', ['xy'])).toBe('xy'); // two edits
    expect(nearest('a', ['xyz'])).toBeUndefined(); // three
    expect(nearest('abcdefghi', ['abcdefxyz'])).toBe('abcdefxyz'); // 9 characters: 3 edits
    expect(nearest('abcdefghi', ['abcdewxyz'])).toBeUndefined(); // 4
    expect(nearest('abcdefghijkl', ['abcdefghwxyz'])).toBe('abcdefghwxyz'); // 12 characters: 4 edits
    expect(nearest('abcdefghijkl', ['abcdefgvwxyz'])).toBeUndefined(); // 5
  });

  it('knows nothing in an empty list', () => {
    expect(nearest('port', [])).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('says "; did you mean X?" with the known name as written', () => {
    expect(didYouMean('callbackURL', ['callbackUrl'])).toBe('; did you mean callbackUrl?');
  });

  it('says nothing when no name is close', () => {
    expect(didYouMean('zzzzzzzz', ['callbackUrl', 'name'])).toBe('');
  });
});
