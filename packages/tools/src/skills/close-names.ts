import { distance } from 'fastest-levenshtein';

/**
 * Names close to `wanted`: containing it (or contained in it) or within a third of its length in
 * edit distance, nearest first, at most `limit`.
 */
export function closeNames(wanted: string, names: readonly string[], limit = 5): string[] {
  const target = wanted.toLowerCase();
  return names
    .map((name) => {
      const candidate = name.toLowerCase();
      const contains = candidate.includes(target) || target.includes(candidate);
      return { name, apart: contains ? 0 : distance(target, candidate) };
    })
    .filter(({ apart }) => apart <= Math.max(2, Math.floor(target.length / 3)))
    .sort((a, b) => a.apart - b.apart || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map(({ name }) => name);
}
