// Searching the watchlist by name: every entry scored (fuzzy.ts), hits at or above the threshold, best
// first. Shared by the search operation and by monitoring, which watches the same hits.
import { tokenSimilarity } from './fuzzy.js';
import { nameTokens } from './transliterate.js';
import { watchlist, type WatchlistEntry } from './watchlist.js';

export type Hit = { entry: WatchlistEntry; score: number };

const entryTokens = new Map(watchlist.map((entry) => [entry.personId, nameTokens(entry.name)]));

/**
 * Entries whose name scores at least `scoreThreshold` against `fullName`, best first, then by name (every
 * name of the list is unique: watchlist.test.ts). With `bornFrom` (YYYY-MM-DD) persons born before that
 * day are left out; companies, which have no birth date, stay in (our choice: as screening services do, a
 * missing date never hides a hit).
 */
export function searchWatchlist(fullName: string, scoreThreshold: number, bornFrom?: string): Hit[] {
  const query = nameTokens(fullName);
  if (query.length === 0) return [];
  const hits: Hit[] = [];
  for (const entry of watchlist) {
    // A date missing on either side (no bornFrom, a company) compares as false, so the entry is kept.
    if (entry.birthdayTime! < bornFrom!) continue;
    const score = Math.round(tokenSimilarity(query, entryTokens.get(entry.personId)!) * 1000) / 10;
    if (score >= scoreThreshold) hits.push({ entry, score });
  }
  return hits.sort((x, y) => y.score - x.score || x.entry.name.localeCompare(y.entry.name, 'en'));
}
