/** Edit distance between two strings (insertions, deletions, substitutions, swaps of neighbours). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * Tool names close to a name the model got wrong (a typo, another casing, a part of the name), best
 * first, so an "unknown tool" answer can say what it probably meant.
 *
 * @example
 * closeToolNames('raed', ['read', 'write', 'grep']); // ['read']
 */
export function closeToolNames(name: string, names: readonly string[], limit = 3): string[] {
  const wanted = name.toLowerCase();
  const scored: Array<{ name: string; score: number }> = [];
  for (const candidate of names) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(wanted, lower);
    const allowed = Math.max(1, Math.floor(Math.max(wanted.length, lower.length) / 3));
    if (lower === wanted) scored.push({ name: candidate, score: 0 });
    else if (distance <= allowed) scored.push({ name: candidate, score: distance });
    else if (wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) {
      scored.push({ name: candidate, score: allowed + 1 });
    }
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((entry) => entry.name);
}
