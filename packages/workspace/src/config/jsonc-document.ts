import {
  findNodeAtLocation,
  type JSONPath,
  type Node as JsonNode,
  type ParseError,
  parse,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { ConfigError } from './config-error.js';
import { RESERVED_KEYS } from './config-sections.js';
import { formatFieldPath } from './env-substitution.js';
import { CONFIG_MAX_DEPTH, findTooDeepOffset } from './jsonc-depth.js';

/** A 1-based line and column. */
export interface TextPosition {
  line: number;
  column: number;
}

/** The line and column of a character offset. */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text.charCodeAt(index) === 10) {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false } as const;

function describeParseError(code: string): string {
  switch (code) {
    case 'PropertyNameExpected':
      return 'a property name in double quotes is expected here';
    case 'ValueExpected':
      return 'a value is expected here';
    case 'ColonExpected':
      return 'a ":" is expected here';
    case 'CommaExpected':
      return 'a "," is expected here (between two entries)';
    case 'CloseBraceExpected':
      return 'a "}" is expected here';
    case 'CloseBracketExpected':
      return 'a "]" is expected here';
    case 'EndOfFileExpected':
      return 'the file should end here (one top-level object only)';
    case 'UnexpectedEndOfComment':
      return 'a block comment is not closed ("*/" missing)';
    case 'UnexpectedEndOfString':
      return 'a string is not closed (closing quote missing)';
    case 'InvalidSymbol':
      return 'this character is not valid JSON here (strings need double quotes)';
    default:
      return `invalid JSON (${code})`;
  }
}

/**
 * Parses JSON with comments and trailing commas. The first syntax error becomes a {@link ConfigError}
 * with its line and column; a document whose top level is not an object, or nested deeper than
 * {@link CONFIG_MAX_DEPTH} levels, is refused too.
 */
export function parseJsoncObject(text: string, file: string): Record<string, unknown> {
  const tooDeep = findTooDeepOffset(text, CONFIG_MAX_DEPTH);
  if (tooDeep !== -1) {
    throw new ConfigError({
      reason: 'syntax',
      file,
      ...positionAt(text, tooDeep),
      detail: `objects and arrays are nested more than ${CONFIG_MAX_DEPTH} levels deep here; no setting needs that. Remove the extra nesting.`,
    });
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, PARSE_OPTIONS);
  const first = errors[0];
  if (first !== undefined) {
    const position = positionAt(text, first.offset);
    throw new ConfigError({
      reason: 'syntax',
      file,
      ...position,
      detail: `${describeParseError(printParseErrorCode(first.error))}. Fix the JSON at this position.`,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError({ reason: 'syntax', file, detail: 'must hold one JSON object ({ ... }).' });
  }
  refuseReservedKeys(text, file);
  return value as Record<string, unknown>;
}

/**
 * Refuses `__proto__`, `constructor` and `prototype` as keys anywhere in the file. Parsing turns a
 * `__proto__` key into the object's prototype (so the key vanishes and its fields are inherited):
 * the check reads the syntax tree, where every key is still there as written.
 */
function refuseReservedKeys(text: string, file: string): void {
  const root = parseTree(text, [], PARSE_OPTIONS);
  const stack: { node: JsonNode; path: (string | number)[] }[] = root === undefined ? [] : [{ node: root, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: JsonNode; path: (string | number)[] };
    for (const [index, child] of (node.children ?? []).entries()) {
      if (node.type === 'array') {
        stack.push({ node: child, path: [...path, index] });
        continue;
      }
      if (node.type !== 'object' || child.type !== 'property') continue;
      const key = String(child.children?.[0]?.value ?? '');
      if (RESERVED_KEYS.has(key)) {
        throw new ConfigError({
          reason: 'schema',
          file,
          field: formatFieldPath([...path, key]),
          ...positionAt(text, child.offset),
          detail: `"${key}" is a reserved JavaScript name and cannot be a key; rename or remove it.`,
        });
      }
      const valueNode = child.children?.[1];
      if (valueNode !== undefined) stack.push({ node: valueNode, path: [...path, key] });
    }
  }
}

/**
 * The position of a field in the text: of the property name when `key` is given (an unknown key),
 * else of the value at `path`; the nearest existing ancestor when the path does not exist.
 */
export function locateField(text: string, path: JSONPath, key?: string): TextPosition | undefined {
  const root = parseTree(text, [], PARSE_OPTIONS);
  if (root === undefined) return undefined;
  for (let length = path.length; length >= 0; length--) {
    const node: JsonNode | undefined = findNodeAtLocation(root, path.slice(0, length));
    if (node === undefined) continue;
    if (key !== undefined && length === path.length && node.type === 'object') {
      const property = node.children?.find((child) => child.children?.[0]?.value === key);
      if (property !== undefined) return positionAt(text, property.offset);
    }
    const target = node.parent?.type === 'property' ? node.parent : node;
    return positionAt(text, target.offset);
  }
  return undefined;
}
