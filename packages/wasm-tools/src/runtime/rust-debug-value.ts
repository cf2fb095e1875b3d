// A parser for the Rust `Debug` notation of a `serde_json::Value`, the text BoxAgnts' own tool
// components print on stdout instead of JSON, for example
//   Object {"content": String("File not found: a.txt"), "is_error": Bool(true)}
// Hand-written because no library reads this notation; it is small, total (every input ends in a
// value or an error, never an exception), linear in the input and iterative (an explicit stack,
// so deep nesting cannot overflow the host's call stack).

/** A JSON value as parsed from Rust debug notation. */
export type DebugJsonValue = null | boolean | number | string | DebugJsonValue[] | { [key: string]: DebugJsonValue };

/** The outcome of {@link parseRustDebugValue}: a value, or where and why the text is not one. */
export type RustDebugParse = { ok: true; value: DebugJsonValue } | { ok: false; error: string; offset: number };

/** Nesting deeper than this is refused (the result is later serialised, which recurses). */
export const RUST_DEBUG_MAX_DEPTH = 256;

type Frame =
  | { kind: 'array'; items: DebugJsonValue[]; close: string; parens: boolean; count: number }
  | {
      kind: 'object';
      entries: Record<string, DebugJsonValue>;
      key: string | undefined;
      close: string;
      parens: boolean;
      count: number;
    };

class DebugSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  '0': '\0',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/** Reads a Rust string literal as `Debug` writes it, starting at the opening quote. */
function readString(text: string, start: number): [string, number] {
  if (text[start] !== '"') throw new DebugSyntaxError('expected a string in double quotes', start);
  const parts: string[] = [];
  let index = start + 1;
  let runStart = index;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 0x22 /* " */) {
      parts.push(text.slice(runStart, index));
      return [parts.join(''), index + 1];
    }
    if (char !== 0x5c /* \ */) {
      index++;
      continue;
    }
    parts.push(text.slice(runStart, index));
    const escaped = text[index + 1];
    if (escaped === undefined) break;
    const simple = SIMPLE_ESCAPES[escaped];
    if (simple !== undefined) {
      parts.push(simple);
      index += 2;
    } else if (escaped === 'u' && text[index + 2] === '{') {
      const close = text.indexOf('}', index + 3);
      const hex = close === -1 ? '' : text.slice(index + 3, close);
      if (!/^[0-9a-fA-F]{1,6}$/.test(hex)) throw new DebugSyntaxError('bad \\u{...} escape', index);
      const codePoint = Number.parseInt(hex, 16);
      if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
        throw new DebugSyntaxError(`\\u{${hex}} is not a Unicode scalar value`, index);
      }
      parts.push(String.fromCodePoint(codePoint));
      index = close + 1;
    } else if (escaped === 'x' && /^[0-7][0-9a-fA-F]$/.test(text.slice(index + 2, index + 4))) {
      parts.push(String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 4), 16)));
      index += 4;
    } else {
      throw new DebugSyntaxError(`unknown escape "\\${escaped}"`, index);
    }
    runStart = index;
  }
  throw new DebugSyntaxError('the string is not closed', start);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z]+/y;

function skipSpace(text: string, index: number): number {
  let at = index;
  while (at < text.length) {
    const char = text.charCodeAt(at);
    if (char !== 0x20 && char !== 0x0a && char !== 0x0d && char !== 0x09) break;
    at++;
  }
  return at;
}

function expect(text: string, index: number, token: string): number {
  if (!text.startsWith(token, index)) throw new DebugSyntaxError(`expected "${token}"`, index);
  return index + token.length;
}

/**
 * Parses Rust debug notation of a JSON value (`serde_json::Value`'s `{:?}` and `{:#?}`):
 * `Null`, `Bool(true)`, `Number(1.5)`, `String("a\"b")`, `Array [..]`, `Object {"k": ..}`, with
 * Rust's string escapes (`\n`, `\t`, `\"`, `\\`, `\0`, `\u{1f600}`), non-ASCII text as is,
 * trailing commas and the older `Array([..])` / `Object({..})` spelling. Never throws: anything
 * else, truncated text, or nesting deeper than {@link RUST_DEBUG_MAX_DEPTH} is `{ ok: false }`.
 *
 * @example
 * parseRustDebugValue('Object {"content": String("hi"), "is_error": Bool(false)}');
 * // { ok: true, value: { content: 'hi', is_error: false } }
 */
export function parseRustDebugValue(text: string): RustDebugParse {
  try {
    return { ok: true, value: parse(text) };
  } catch (error) {
    if (error instanceof DebugSyntaxError) return { ok: false, error: error.message, offset: error.offset };
    return { ok: false, error: String(error), offset: 0 };
  }
}

function parse(text: string): DebugJsonValue {
  const stack: Frame[] = [];
  let index = skipSpace(text, 0);
  let result: { value: DebugJsonValue } | undefined;

  /** Hands a finished value to the innermost container, or makes it the result. */
  const deliver = (value: DebugJsonValue) => {
    const top = stack.at(-1);
    if (top === undefined) result = { value };
    else if (top.kind === 'array') {
      top.items.push(value);
      top.count++;
    } else {
      top.count++;
      // Own property even for "__proto__": never reaches the prototype.
      Object.defineProperty(top.entries, top.key as string, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      top.key = undefined;
    }
  };

  for (;;) {
    const top = stack.at(-1);
    index = skipSpace(text, index);
    // Inside a container: a closing bracket, or the next key / value.
    if (top !== undefined) {
      const empty = top.count === 0;
      if (text.startsWith(top.close, index)) {
        index += top.close.length;
        if (top.parens) index = expect(text, skipSpace(text, index), ')');
        stack.pop();
        deliver(top.kind === 'array' ? top.items : top.entries);
        if (stack.length === 0) break;
        continue;
      }
      if (!empty) {
        index = skipSpace(text, expect(text, index, ','));
        if (text.startsWith(top.close, index)) continue; // a trailing comma
      }
      if (top.kind === 'object') {
        const [key, after] = readString(text, index);
        top.key = key;
        index = skipSpace(text, expect(text, skipSpace(text, after), ':'));
      }
    }
    // A value.
    WORD.lastIndex = index;
    const word = WORD.exec(text)?.[0];
    if (word === undefined) throw new DebugSyntaxError('expected Null, Bool, Number, String, Array or Object', index);
    index += word.length;
    if (word === 'Null') {
      deliver(null);
    } else if (word === 'Bool' || word === 'Number' || word === 'String') {
      index = skipSpace(text, expect(text, skipSpace(text, index), '('));
      let value: DebugJsonValue;
      if (word === 'String') {
        [value, index] = readString(text, index);
      } else if (word === 'Bool') {
        if (text.startsWith('true', index)) [value, index] = [true, index + 4];
        else if (text.startsWith('false', index)) [value, index] = [false, index + 5];
        else throw new DebugSyntaxError('expected true or false', index);
      } else {
        NUMBER.lastIndex = index;
        const number = NUMBER.exec(text)?.[0];
        if (number === undefined) throw new DebugSyntaxError('expected a number', index);
        value = Number(number);
        index += number.length;
      }
      index = expect(text, skipSpace(text, index), ')');
      deliver(value);
    } else if (word === 'Array' || word === 'Object') {
      if (stack.length >= RUST_DEBUG_MAX_DEPTH) {
        throw new DebugSyntaxError(`nested deeper than ${RUST_DEBUG_MAX_DEPTH} levels`, index);
      }
      index = skipSpace(text, index);
      const parens = text[index] === '(';
      if (parens) index = skipSpace(text, index + 1);
      const open = word === 'Array' ? '[' : '{';
      index = expect(text, index, open);
      stack.push(
        word === 'Array'
          ? { kind: 'array', items: [], close: ']', parens, count: 0 }
          : { kind: 'object', entries: {}, key: undefined, close: '}', parens, count: 0 },
      );
      continue;
    } else {
      throw new DebugSyntaxError(`unknown variant "${word}"`, index - word.length);
    }
    if (stack.length === 0) break;
  }
  index = skipSpace(text, index);
  if (index !== text.length) throw new DebugSyntaxError('unexpected text after the value', index);
  return (result as { value: DebugJsonValue }).value;
}
