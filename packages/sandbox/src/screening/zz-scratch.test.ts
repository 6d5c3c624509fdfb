import { it, expect } from 'vitest';
import { searchWatchlist } from './search.js';
import { editDistance } from './fuzzy.js';
it('scratch', () => {
  expect(editDistance('kitten','sitting')).toBe(3);
  expect(editDistance('ab','ba')).toBe(1);
  expect(editDistance('','abc')).toBe(3);
  expect(editDistance('ca','abc')).toBe(3);
  searchWatchlist('warm up', 0);
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) searchWatchlist('Testavia Sampleova' + i, 0);
  console.log('ms per search', (performance.now() - t0) / 20);
  console.log(searchWatchlist('Tesatvia Sampleova', 0).slice(0,3).map(h=>h.score));
});
