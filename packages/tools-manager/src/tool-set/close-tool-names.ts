import { distance } from 'fastest-levenshtein';

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
    const apart = distance(wanted, lower);
    // Levenshtein counts a swap of neighbours (`raed`) as two edits: allow two for short names.
    const allowed = Math.max(2, Math.floor(Math.max(wanted.length, lower.length) / 3));
    if (lower === wanted) scored.push({ name: candidate, score: 0 });
    else if (apart <= allowed) scored.push({ name: candidate, score: apart });
    else if (wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) {
      scored.push({ name: candidate, score: allowed + 1 });
    }
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((entry) => entry.name);
}
