import { describe, expect, it } from 'vitest';
import { editDistance, jaroWinkler, nameScore } from './fuzzy.js';
import { nameTokens, transliterate } from './transliterate.js';

describe('transliterate', () => {
  it.each([
    ['Tëstović', 'testovic'],
    ['ŞAMPLEOĞLU', 'sampleoglu'],
    ['Łoremczyk-Müsterlein', 'loremczyk musterlein'],
    ['Straße Ærø Þór', 'strasse aero thor'],
    ['Тестович Юлия', 'testovich yuliya'],
    ['ტესტავია', 'testavia'],
    ['  O\'Sample,  Jr. ', 'o sample jr'],
    ['Testavia\u0308', 'testavia'],
  ])('%s gives %s', (text, plain) => {
    expect(transliterate(text)).toBe(plain);
  });

  it('gives no words for a name without letters or digits', () => {
    expect(nameTokens(' !? ')).toEqual([]);
  });
});

describe('similarity measures', () => {
  it('Jaro-Winkler gives the textbook values', () => {
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('dwayne', 'duane')).toBeCloseTo(0.84, 2);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.813, 3);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('', 'a')).toBe(0);
  });

  it('edit distance counts a swap of neighbours as one edit', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('testavia', 'tesatvia')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
  });
});

describe('nameScore', () => {
  it('is 100 for the same name in another order, case or script', () => {
    expect(nameScore('Testavia Sampleova', 'Testavia Sampleova')).toBe(100);
    expect(nameScore('sampleova TESTAVIA', 'Testavia Sampleova')).toBe(100);
    expect(nameScore('Testavia Testovic', 'Testavia Tëstović')).toBe(100);
  });

  it('forgives a typo more than a missing word, and a missing word more than another name', () => {
    const typo = nameScore('Tesatvia Sampleova', 'Testavia Sampleova');
    const missing = nameScore('Testavia', 'Testavia Sampleova');
    const other = nameScore('John Smith', 'Testavia Sampleova');
    expect(typo).toBeGreaterThan(90);
    expect(typo).toBeLessThan(100);
    expect(missing).toBeLessThan(typo);
    expect(other).toBeLessThan(missing);
    expect(other).toBeLessThan(50);
  });

  it('is 0 when either name has no words', () => {
    expect(nameScore('', 'Testavia Sampleova')).toBe(0);
    expect(nameScore('Testavia', '...')).toBe(0);
  });
});
