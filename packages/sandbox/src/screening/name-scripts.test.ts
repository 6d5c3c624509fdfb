// How the screening search reads a name written in another script (docs/screening-and-monitoring.md: the
// matching tolerates transliteration from Cyrillic and Georgian, diacritics, case and punctuation): each
// letter the sandbox knows becomes the Latin letters of the common passport romanizations, so a tester who
// screens "Щукин" or "ჯავახიშვილი" gets the hits of "Shchukin" or "Javakhishvili".
import { describe, expect, it } from 'vitest';
import { searchWatchlist } from './search.js';
import { nameTokens, transliterate } from './transliterate.js';

const each = (letters: Record<string, string>) => Object.fromEntries(Object.keys(letters).map((letter) => [letter, transliterate(letter)]));

describe('transliterate, letter by letter', () => {
  it('reads Russian, Ukrainian and Serbian Cyrillic as passports romanize it (hard and soft signs silent)', () => {
    const cyrillic = {
      а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o',
      п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e',
      ю: 'yu', я: 'ya', і: 'i', ї: 'yi', є: 'ye', ґ: 'g', ђ: 'dj', ј: 'j', љ: 'lj', њ: 'nj', ћ: 'c', џ: 'dz',
    };
    expect(each(cyrillic)).toEqual(cyrillic);
    // Capitals too, and the signs inside a word leave no gap.
    expect(transliterate('ЩУКИН Объектов Ильич')).toBe('shchukin obektov ilich');
  });

  it('reads Georgian (Mkhedruli) by the national romanization, without apostrophes', () => {
    const georgian = {
      ა: 'a', ბ: 'b', გ: 'g', დ: 'd', ე: 'e', ვ: 'v', ზ: 'z', თ: 't', ი: 'i', კ: 'k', ლ: 'l', მ: 'm', ნ: 'n', ო: 'o', პ: 'p', ჟ: 'zh',
      რ: 'r', ს: 's', ტ: 't', უ: 'u', ფ: 'p', ქ: 'k', ღ: 'gh', ყ: 'q', შ: 'sh', ჩ: 'ch', ც: 'ts', ძ: 'dz', წ: 'ts', ჭ: 'ch', ხ: 'kh', ჯ: 'j', ჰ: 'h',
    };
    expect(each(georgian)).toEqual(georgian);
    expect(transliterate('ჯავახიშვილი')).toBe('javakhishvili');
  });

  it('spells out the Latin letters that have no accent to drop', () => {
    const latin = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ŀ: 'l', ħ: 'h', ŧ: 't' };
    expect(each(latin)).toEqual(latin);
    expect(transliterate('ŒUVRE Øster ĦAŻ')).toBe('oeuvre oster haz');
  });
});

describe('transliterate, whole names', () => {
  it('finds the letter of a name sent decomposed (a base letter and a combining mark)', () => {
    // й sent as и + combining breve is still the "y" of the table, not an "i".
    expect(transliterate('Андре\u0438\u0306')).toBe('andrey');
  });

  it('reads compatibility forms as their plain letters (ligatures, full-width letters)', () => {
    expect(transliterate('\ufb01nn')).toBe('finn');
    expect(transliterate('ＳＡＭＰＬＥ')).toBe('sample');
  });

  it('keeps digits, and puts one space between words whatever separates them', () => {
    expect(transliterate('  Sample--Corp  No. 7 ')).toBe('sample corp no 7');
    expect(nameTokens('  Sample--Corp  No. 7 ')).toEqual(['sample', 'corp', 'no', '7']);
    expect(nameTokens('')).toEqual([]);
  });
});

describe('a search by a name in another script', () => {
  it('gives the hits of its Latin spelling', () => {
    const ids = (name: string) => searchWatchlist(name, 85).map((hit) => [hit.entry.personId, hit.score]);
    expect(ids('Тестава Сэмплеова')).toEqual(ids('Testava Sempleova'));
    expect(ids('Тестава Сэмплеова').length).toBeGreaterThan(0);
    expect(ids('ტესტავია სამპლეოვა')).toEqual(ids('Testavia Sampleova'));
  });
});
