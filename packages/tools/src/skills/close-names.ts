function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}

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
      return { name, distance: contains ? 0 : editDistance(target, candidate) };
    })
    .filter(({ distance }) => distance <= Math.max(2, Math.floor(target.length / 3)))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map(({ name }) => name);
}
