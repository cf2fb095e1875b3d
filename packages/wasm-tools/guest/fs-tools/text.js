// Text helpers shared by the tools: lines, line numbers, truncation.

/** Longest line shown by read and grep before it is cut. */
export const MAX_LINE_CHARS = 2000;

/** Splits text into lines; a final newline does not start another line; `\r` before `\n` is dropped. */
export function splitLines(text) {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    if (line.endsWith('\r')) lines[index] = line.slice(0, -1);
  }
  return lines;
}

/** Cuts a line longer than `max` characters, saying how long it was. */
export function truncateLine(line, max = MAX_LINE_CHARS) {
  if (line.length <= max) return { text: line, truncated: false };
  return { text: `${line.slice(0, max)}... [line truncated: ${line.length} characters]`, truncated: true };
}

/** `cat -n` style: the line number right-aligned in 6 columns, a tab, the line. */
export function numberLine(number, line) {
  return `${String(number).padStart(6, ' ')}\t${line}`;
}

/** 1-based line number of a character offset. */
export function lineNumberAt(text, offset) {
  let line = 1;
  let index = text.indexOf('\n');
  while (index >= 0 && index < offset) {
    line += 1;
    index = text.indexOf('\n', index + 1);
  }
  return line;
}

/** Counts lines the way an editor does: a non-empty text without a final newline still has its last line. */
export function countLines(text) {
  return splitLines(text).length;
}
