import { it } from 'vitest';
import { searchWatchlist } from './search.js';
import { watchlist } from './watchlist.js';
it('scratch', () => {
console.log(watchlist.length);
for (const q of ['Testavia Sampleova', 'Sampleova Testavia', 'Tesatvia Sampleova', 'Testavia Testovic', 'Теставия Сэмплеова', 'ტესტავია სამპლეოვა', 'Testavia', 'Muesterlein', 'Testbank', 'John Smith', 'Samplor Sampleov']) {
  const hits = searchWatchlist(q, 0);
  console.log(q, hits.slice(0, 5).map((h) => `${h.entry.name}=${h.score}`).join(', '), '| >=70:', hits.filter((h) => h.score >= 70).length, '>=85:', hits.filter((h) => h.score >= 85).length, 'median', hits[Math.floor(hits.length/2)]!.score);
}
});
