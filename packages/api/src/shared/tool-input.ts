import type { JsonObject } from '../spec/json-value.js';
import type { ToolInputError } from '../spec/message.js';

/** Bounds on tool-call arguments, checked before they are stored or logged. */
export interface ToolInputLimits {
  /** Most characters of argument JSON. Default 1,000,000. */
  maxLength?: number;
  /** Deepest nesting of objects and arrays. Default 64. */
  maxDepth?: number;
}

/** The defaults of {@link ToolInputLimits}. */
export const DEFAULT_TOOL_INPUT_LIMITS = { maxLength: 1_000_000, maxDepth: 64 } as const;

/** Parsed tool arguments, or why they cannot be used. */
export type ToolInputParseResult = { ok: true; input: JsonObject } | { ok: false; error: ToolInputError };

const RAW_INPUT_PREVIEW = 2_000;

/**
 * Parses a tool call's accumulated argument text without throwing: empty or blank text (and `null`)
 * is `{}`; text longer than `maxLength` or nested deeper than `maxDepth` is refused before
 * `JSON.parse` runs (it would accept a million levels, which `JSON.stringify` then cannot write);
 * invalid JSON and non-objects give a typed error the loop turns into an error result.
 */
export function parseToolInput(text: string, limits: ToolInputLimits = {}): ToolInputParseResult {
  const maxLength = limits.maxLength ?? DEFAULT_TOOL_INPUT_LIMITS.maxLength;
  const maxDepth = limits.maxDepth ?? DEFAULT_TOOL_INPUT_LIMITS.maxDepth;
  if (text.trim() === '') return { ok: true, input: {} };
  if (text.length > maxLength) {
    return failure(
      'too-large',
      `The tool arguments are ${text.length} characters, over the limit of ${maxLength}.`,
      text,
    );
  }
  const depth = jsonTextDepth(text, maxDepth);
  if (depth > maxDepth) {
    return failure('too-deep', `The tool arguments nest deeper than the limit of ${maxDepth} levels.`, text);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return failure('invalid-json', `The tool arguments are not valid JSON (${reason}); send one JSON object.`, text);
  }
  return objectResult(value, text);
}

/**
 * Checks arguments a vendor delivered already parsed (Gemini `functionCall.args`, Ollama) against
 * the same limits, so they are safe to store.
 */
export function checkToolInputValue(value: unknown, limits: ToolInputLimits = {}): ToolInputParseResult {
  const maxDepth = limits.maxDepth ?? DEFAULT_TOOL_INPUT_LIMITS.maxDepth;
  const maxLength = limits.maxLength ?? DEFAULT_TOOL_INPUT_LIMITS.maxLength;
  if (valueDepth(value, maxDepth) > maxDepth) {
    return failure('too-deep', `The tool arguments nest deeper than the limit of ${maxDepth} levels.`, '');
  }
  let text: string;
  try {
    text = JSON.stringify(value) ?? '';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return failure('invalid-json', `The tool arguments cannot be written as JSON (${reason}).`, '');
  }
  if (text.length > maxLength) {
    return failure(
      'too-large',
      `The tool arguments are ${text.length} characters, over the limit of ${maxLength}.`,
      text,
    );
  }
  return objectResult(value, text);
}

/** Accumulates streamed argument text up to a bound, then parses it once at the end of the call. */
export interface ToolInputBuffer {
  append(delta: string): void;
  /** The text so far (at most `maxLength + 1` characters are kept). */
  readonly text: string;
  parse(): ToolInputParseResult;
}

/**
 * Creates a {@link ToolInputBuffer} for one tool call; adapters keep one per open call and emit
 * `tool-call-end` with the result of `parse()`.
 *
 * @example
 * const buffer = createToolInputBuffer();
 * buffer.append('{"path":');
 * buffer.append('"a.txt"}');
 * buffer.parse(); // { ok: true, input: { path: 'a.txt' } }
 */
export function createToolInputBuffer(limits: ToolInputLimits = {}): ToolInputBuffer {
  const maxLength = limits.maxLength ?? DEFAULT_TOOL_INPUT_LIMITS.maxLength;
  const parts: string[] = [];
  let length = 0;
  let overflowedLength = 0;
  return {
    append(delta) {
      if (length > maxLength) {
        overflowedLength += delta.length;
        return;
      }
      parts.push(delta);
      length += delta.length;
    },
    get text() {
      return parts.join('');
    },
    parse() {
      const text = parts.join('');
      if (overflowedLength > 0 || text.length > maxLength) {
        const total = text.length + overflowedLength;
        return failure(
          'too-large',
          `The tool arguments are ${total} characters, over the limit of ${maxLength}.`,
          text,
        );
      }
      return parseToolInput(text, limits);
    },
  };
}

function objectResult(value: unknown, text: string): ToolInputParseResult {
  if (value === null) return { ok: true, input: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return failure('not-an-object', `The tool arguments must be a JSON object, not ${kind}.`, text);
  }
  return { ok: true, input: value as JsonObject };
}

function failure(kind: ToolInputError['kind'], message: string, text: string): ToolInputParseResult {
  return { ok: false, error: { kind, message, rawInput: text.slice(0, RAW_INPUT_PREVIEW) } };
}

/** Nesting depth of JSON text, scanning past strings; stops counting once past `limit`. */
function jsonTextDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  return deepest;
}

/** Nesting depth of a parsed value without recursion; stops once past `limit` (so a cycle ends too). */
function valueDepth(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  // The usual tool input is flat (no object or array inside): one level, with no stack to build.
  // `for...in` allocates nothing (`Object.values` made an array per call). It also visits inherited
  // enumerable keys: one of those holding an object only sends the value to the full walk below,
  // which reads own values as before, so the depth is the same.
  const record = value as Record<string, unknown>;
  let flat = true;
  for (const key in record) {
    const child = record[key];
    if (typeof child === 'object' && child !== null) {
      flat = false;
      break;
    }
  }
  if (flat) return 1;
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof current !== 'object' || current === null) continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) stack.push({ value: child, depth: level });
  }
  return deepest;
}
