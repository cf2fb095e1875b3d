/** Why a command can never be approved by an allow rule. */
export type OpaqueReason = 'substitution' | 'redirect' | 'heredoc' | 'unterminated';

/** One word of a simple command: as written, and with quotes and escapes removed. */
export interface CommandWord {
  raw: string;
  value: string;
}

/** A simple command: the text between two separators, split into words. */
export interface SimpleCommand {
  /** The command as written, trimmed, with runs of unquoted blanks collapsed to one space. */
  text: string;
  words: CommandWord[];
}

/** A shell command line split the way a POSIX shell would split it. */
export interface ParsedCommand {
  /** The top-level simple commands (split at `&&`, `||`, `;`, `|`, `&` and line breaks). */
  parts: SimpleCommand[];
  /** Simple commands inside `$(...)`, backticks and `<(...)`/`>(...)`, at any depth. */
  nested: SimpleCommand[];
  /** Constructs whose effect cannot be judged from the text; any one of them rules out allow rules. */
  opaque: OpaqueReason[];
}

const WORD_END = /[ \t\n\r;&|<>()]/;

/**
 * Splits a shell command line into simple commands, following shell quoting (single, double and
 * `$'...'` quotes, backslash escapes, line continuations and `#` comments), so a separator inside
 * quotes does not split and one outside them always does. It also notes what makes a command
 * unjudgeable (substitutions, redirects to files, here-documents, unterminated quotes).
 *
 * @example
 * parseCommand('npm test && rm -rf /').parts.map((part) => part.text); // ['npm test', 'rm -rf /']
 */
export function parseCommand(command: string): ParsedCommand {
  const result: ParsedCommand = { parts: [], nested: [], opaque: [] };
  new Scanner(command, result).scan(0, false, result.parts);
  result.opaque = [...new Set(result.opaque)];
  return result;
}

class PartBuilder {
  private readonly words: CommandWord[] = [];
  private text = '';
  private raw = '';
  private value = '';
  private inWord = false;
  private pendingBlank = false;

  /** Adds characters to the current word. */
  add(raw: string, value: string): void {
    this.appendText(raw);
    this.raw += raw;
    this.value += value;
    this.inWord = true;
  }

  /** Adds an operator (a redirect) as a word of its own, glued to its neighbours in the text as written. */
  operator(raw: string): void {
    this.endWord();
    this.appendText(raw);
    this.words.push({ raw, value: raw });
  }

  /** Unquoted blanks: end the word; the text gets one space. */
  blank(): void {
    this.endWord();
    this.pendingBlank = true;
  }

  finish(): SimpleCommand | undefined {
    this.endWord();
    if (this.words.length === 0) return undefined;
    return { text: this.text, words: this.words };
  }

  private appendText(raw: string): void {
    if (this.pendingBlank && this.text !== '') this.text += ' ';
    this.pendingBlank = false;
    this.text += raw;
  }

  private endWord(): void {
    if (this.inWord) this.words.push({ raw: this.raw, value: this.value });
    this.raw = '';
    this.value = '';
    this.inWord = false;
  }
}

class Scanner {
  constructor(
    private readonly source: string,
    private readonly result: ParsedCommand,
  ) {}

  /** Scans from `start`; inside `$(` it stops after the closing `)` and returns the index after it. */
  scan(start: number, untilParenthesis: boolean, into: SimpleCommand[]): number {
    const source = this.source;
    let part = new PartBuilder();
    const flush = (): void => {
      const finished = part.finish();
      if (finished !== undefined) into.push(finished);
      part = new PartBuilder();
    };
    let index = start;
    let depth = 0;
    let atWordStart = true;
    while (index < source.length) {
      const character = source[index] as string;
      const next = source[index + 1];
      if (character === ' ' || character === '\t') {
        part.blank();
        atWordStart = true;
        index++;
        continue;
      }
      if (character === '\n' || character === '\r' || character === ';' || character === '|') {
        flush();
        atWordStart = true;
        index++;
        continue;
      }
      if (character === '&' && next !== '>') {
        flush();
        atWordStart = true;
        index++;
        continue;
      }
      if (character === '#' && atWordStart) {
        while (index < source.length && source[index] !== '\n' && source[index] !== '\r') index++;
        continue;
      }
      atWordStart = false;
      if (character === '\\') {
        if (next === '\n') {
          index += 2;
        } else if (next === undefined) {
          this.result.opaque.push('unterminated');
          part.add('\\', '\\');
          index++;
        } else {
          part.add(character + next, next);
          index += 2;
        }
        continue;
      }
      if (character === "'") {
        index = this.singleQuoted(index, part);
        continue;
      }
      if (character === '$' && next === "'") {
        index = this.ansiQuoted(index, part);
        continue;
      }
      if (character === '"') {
        index = this.doubleQuoted(index, part);
        continue;
      }
      if (character === '`') {
        index = this.backticks(index, part);
        continue;
      }
      if ((character === '$' || character === '<' || character === '>') && next === '(') {
        this.result.opaque.push('substitution');
        const end = this.scan(index + 2, true, this.result.nested);
        const raw = source.slice(index, end);
        part.add(raw, raw);
        index = end;
        continue;
      }
      if (character === '<' || character === '>' || character === '&') {
        index = this.redirect(index, part);
        atWordStart = true;
        continue;
      }
      if (untilParenthesis && character === '(') depth++;
      if (untilParenthesis && character === ')') {
        if (depth === 0) {
          flush();
          return index + 1;
        }
        depth--;
      }
      if (character === '(' || character === ')') atWordStart = true;
      part.add(character, character);
      index++;
    }
    if (untilParenthesis) this.result.opaque.push('unterminated');
    flush();
    return index;
  }

  private singleQuoted(start: number, part: PartBuilder): number {
    const end = this.source.indexOf("'", start + 1);
    if (end === -1) {
      this.result.opaque.push('unterminated');
      part.add(this.source.slice(start), this.source.slice(start + 1));
      return this.source.length;
    }
    part.add(this.source.slice(start, end + 1), this.source.slice(start + 1, end));
    return end + 1;
  }

  private ansiQuoted(start: number, part: PartBuilder): number {
    const source = this.source;
    let index = start + 2;
    let value = '';
    while (index < source.length && source[index] !== "'") {
      if (source[index] === '\\' && index + 1 < source.length) {
        value += source[index + 1];
        index += 2;
      } else {
        value += source[index];
        index++;
      }
    }
    if (index >= source.length) this.result.opaque.push('unterminated');
    part.add(source.slice(start, index + 1), value);
    return index + 1;
  }

  private doubleQuoted(start: number, part: PartBuilder): number {
    const source = this.source;
    let index = start + 1;
    let value = '';
    while (index < source.length && source[index] !== '"') {
      const character = source[index] as string;
      const next = source[index + 1];
      if (character === '\\' && next !== undefined && '"\\$`\n'.includes(next)) {
        if (next !== '\n') value += next;
        index += 2;
      } else if (character === '$' && next === '(') {
        this.result.opaque.push('substitution');
        const end = this.scan(index + 2, true, this.result.nested);
        value += source.slice(index, end);
        index = end;
      } else if (character === '`') {
        const inner = new PartBuilder();
        const end = this.backticks(index, inner);
        value += source.slice(index, end);
        index = end;
      } else {
        value += character;
        index++;
      }
    }
    if (index >= source.length) this.result.opaque.push('unterminated');
    part.add(source.slice(start, index + 1), value);
    return index + 1;
  }

  private backticks(start: number, part: PartBuilder): number {
    const source = this.source;
    this.result.opaque.push('substitution');
    let index = start + 1;
    let inner = '';
    while (index < source.length && source[index] !== '`') {
      if (source[index] === '\\' && index + 1 < source.length) {
        const next = source[index + 1] as string;
        inner += '`\\$'.includes(next) ? next : `\\${next}`;
        index += 2;
      } else {
        inner += source[index];
        index++;
      }
    }
    if (index >= source.length) this.result.opaque.push('unterminated');
    const nested = parseCommand(inner);
    this.result.nested.push(...nested.parts, ...nested.nested);
    const raw = source.slice(start, index + 1);
    part.add(raw, raw);
    return index + 1;
  }

  /** Reads a redirect operator at `start` (`>`, `>>`, `>|`, `>&`, `&>`, `<`, `<&`, `<<`, `<<<`). */
  private redirect(start: number, part: PartBuilder): number {
    const source = this.source;
    if (source.startsWith('<<<', start)) {
      part.operator('<<<');
      return start + 3;
    }
    if (source.startsWith('<<', start)) {
      this.result.opaque.push('heredoc');
      part.operator('<<');
      return start + 2;
    }
    if (source[start] === '<') {
      const operator = source[start + 1] === '&' ? '<&' : '<';
      part.operator(operator);
      return start + operator.length;
    }
    let index = start;
    let operator = '';
    if (source[index] === '&') operator += source[index++];
    operator += source[index++];
    if (source[index] === '>' || source[index] === '|') operator += source[index++];
    let duplicates = false;
    if (operator.startsWith('>') && source[index] === '&') {
      operator += source[index++];
      duplicates = true;
    }
    let targetStart = index;
    while (source[targetStart] === ' ' || source[targetStart] === '\t') targetStart++;
    let targetEnd = targetStart;
    while (targetEnd < source.length && !WORD_END.test(source[targetEnd] as string)) targetEnd++;
    const target = source.slice(targetStart, targetEnd);
    const harmless = (duplicates && /^(\d+|-)$/.test(target)) || target === '/dev/null';
    if (!harmless) this.result.opaque.push('redirect');
    part.operator(operator);
    return index;
  }
}
