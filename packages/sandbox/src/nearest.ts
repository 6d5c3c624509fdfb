// "Did you mean ...?" for a misspelled name: the known name at the smallest edit distance, ignoring case,
// when it is close enough to be what was meant.
import leven from 'leven';

export function nearest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = leven(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/** `; did you mean X?`, or nothing when no known name is close. */
export const didYouMean = (name: string, known: readonly string[]): string => {
  const match = nearest(name, known);
  return match ? `; did you mean ${match}?` : '';
};
