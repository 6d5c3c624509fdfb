// The screening search's name score, 0 to 100. Both names are transliterated into words (transliterate.ts);
// each word of the query is paired with its most similar word of the listed name, so word order does
// not matter; a word's similarity is the mean of Jaro-Winkler (kind to typos near the end and to shared
// prefixes) and Damerau-Levenshtein similarity (one edit per typo, a swap of neighbours included). The
// score is the length-weighted mean over every word of both names, so a word left without a partner (a
// missing surname, an extra middle name) pulls the score down by its length.
import { nameTokens } from './transliterate.js';

export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = Math.max(0, i - window); j < Math.min(b.length, i + window + 1); j++) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = bMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a[i] !== b[j]) transpositions++;
    j++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  // Three rolling rows: the swap looks two rows back.
  let before = new Uint16Array(b.length + 1);
  let previous = Uint16Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current[j] = best;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

export function wordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const edits = 1 - editDistance(a, b) / Math.max(a.length, b.length);
  return (jaroWinkler(a, b) + edits) / 2;
}

/** Similarity of two names already split into words, 0 to 1. */
export function tokenSimilarity(query: string[], name: string[]): number {
  if (query.length === 0 || name.length === 0) return 0;
  const pairs = query.flatMap((q, i) => name.map((n, j) => ({ i, j, weight: q.length + n.length, similarity: wordSimilarity(q, n) })));
  // Greedy pairing, most similar first: names have a handful of words, so this is the best pairing in
  // practice, and it is deterministic (ties keep query order).
  pairs.sort((x, y) => y.similarity - x.similarity || x.i - y.i || x.j - y.j);
  const usedQuery = new Set<number>();
  const usedName = new Set<number>();
  let matched = 0;
  for (const pair of pairs) {
    if (usedQuery.has(pair.i) || usedName.has(pair.j)) continue;
    usedQuery.add(pair.i);
    usedName.add(pair.j);
    matched += pair.similarity * pair.weight;
  }
  const total = [...query, ...name].reduce((sum, word) => sum + word.length, 0);
  return matched / total;
}

/** The score of a listed name for a searched name: 0 to 100, one decimal. */
export function nameScore(query: string, name: string): number {
  return Math.round(tokenSimilarity(nameTokens(query), nameTokens(name)) * 1000) / 10;
}
