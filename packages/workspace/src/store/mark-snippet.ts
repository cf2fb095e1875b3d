/**
 * A short excerpt of `text` around the first word equal (ignoring case) to one of `terms`, with
 * every such word wrapped in `start`/`end` and `…` where text was cut. Used where the database's
 * own highlighter tokenises differently from the search (PostgreSQL's parser keeps `a.txt` whole).
 */
export function markSnippet(
  text: string,
  terms: readonly string[],
  marks: { start: string; end: string },
  window = 16,
): string {
  const wanted = new Set(terms.map((term) => term.toLowerCase()));
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  const isMatch = (word: string) => wanted.has(word.toLowerCase());
  const firstMatch = Math.max(
    0,
    words.findIndex((word) => isMatch(word[0])),
  );
  const from = Math.max(0, firstMatch - Math.floor(window / 3));
  const to = Math.min(words.length, from + window);
  if (words.length === 0) return '';
  const startOffset = from === 0 ? 0 : (words[from]?.index ?? 0);
  const last = words[to - 1];
  const endOffset = to === words.length ? text.length : (last?.index ?? 0) + (last?.[0].length ?? 0);
  let result = '';
  let cursor = startOffset;
  for (const word of words.slice(from, to)) {
    const index = word.index ?? 0;
    if (!isMatch(word[0])) continue;
    result += text.slice(cursor, index) + marks.start + word[0] + marks.end;
    cursor = index + word[0].length;
  }
  result += text.slice(cursor, endOffset);
  return `${from > 0 ? '…' : ''}${result.replace(/\s+/g, ' ').trim()}${to < words.length ? '…' : ''}`;
}
