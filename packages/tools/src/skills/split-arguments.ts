/**
 * Splits an argument string the way a shell would for plain words: whitespace separates words,
 * single quotes keep everything literally, double quotes keep spaces and honour `\"` and `\\`, and
 * a backslash outside quotes escapes the next character. An unclosed quote runs to the end.
 *
 * @example
 * splitArguments(`src/a.ts "two words" 'it''s'`); // ['src/a.ts', 'two words', 'its']
 */
export function splitArguments(input: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let index = 0; index < input.length; index++) {
    const character = input[index]!;
    if (quote === "'") {
      if (character === "'") quote = null;
      else current += character;
    } else if (quote === '"') {
      const next = input[index + 1];
      if (character === '"') quote = null;
      else if (character === '\\' && (next === '"' || next === '\\')) {
        current += next;
        index++;
      } else current += character;
    } else if (character === "'" || character === '"') {
      quote = character;
      inWord = true;
    } else if (character === '\\' && index + 1 < input.length) {
      current += input[index + 1];
      index++;
      inWord = true;
    } else if (/\s/.test(character)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += character;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}
