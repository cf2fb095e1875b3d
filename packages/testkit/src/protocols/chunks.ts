/**
 * Split text into pieces of at most `size` characters without breaking a surrogate pair,
 * so every delta is valid UTF-16 on its own. An empty string yields no pieces.
 */
export function splitText(text: string, size: number): string[] {
  const step = Math.max(1, Math.floor(size));
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + step);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/** A rough token estimate (4 characters a token) for usage numbers a script leaves out. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
