import type { GeminiPartialArg } from './gemini-wire.js';

/**
 * Arguments of a function call being streamed in pieces (Vertex AI `partialArgs`, Gemini 3): the
 * value built so far and the JSON paths whose string is still arriving.
 */
export interface PartialArguments {
  value: Record<string, unknown>;
  /** Paths whose last piece had `willContinue: true`: the next string piece is appended. */
  continuing: Set<string>;
}

/** An empty {@link PartialArguments}. */
export function createPartialArguments(): PartialArguments {
  return { value: {}, continuing: new Set() };
}

/**
 * Applies streamed argument pieces: each names a JSON path (RFC 9535, e.g. `$.foo.bar[0].data`) and
 * a string, number, boolean or null value; a string piece whose previous piece for the same path
 * had `willContinue: true` is appended to it. Pieces with a path this reader cannot follow are
 * skipped rather than guessed.
 *
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content#PartialArg
 */
export function applyPartialArgs(target: PartialArguments, pieces: readonly GeminiPartialArg[]): void {
  for (const piece of pieces) {
    if (piece.jsonPath === undefined) continue;
    const path = parseJsonPath(piece.jsonPath);
    if (path === undefined || path.length === 0) continue;
    const value = pieceValue(piece);
    if (value === undefined) continue;
    const append = typeof value === 'string' && target.continuing.has(piece.jsonPath);
    setAtPath(target.value, path, value, append);
    if (piece.willContinue === true) target.continuing.add(piece.jsonPath);
    else target.continuing.delete(piece.jsonPath);
  }
}

function pieceValue(piece: GeminiPartialArg): unknown {
  if (piece.stringValue !== undefined) return piece.stringValue;
  if (piece.numberValue !== undefined) return piece.numberValue;
  if (piece.boolValue !== undefined) return piece.boolValue;
  if ('nullValue' in piece) return null;
  return undefined;
}

/** `$.a.b[0]['c d']` → `['a', 'b', 0, 'c d']`; undefined when the path is not of that form. */
export function parseJsonPath(path: string): Array<string | number> | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: Array<string | number> = [];
  const pattern = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (match === null) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push((match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1'));
  }
  return segments;
}

type Container = Record<string | number, unknown>;

function setAtPath(root: Record<string, unknown>, path: Array<string | number>, value: unknown, append: boolean): void {
  let container: Container = root;
  for (const [index, segment] of path.entries()) {
    const existing = container[segment];
    if (index === path.length - 1) {
      container[segment] = append && typeof existing === 'string' ? existing + String(value) : value;
      return;
    }
    if (typeof existing === 'object' && existing !== null) {
      container = existing as Container;
      continue;
    }
    const created: Container = typeof path[index + 1] === 'number' ? ([] as unknown as Container) : {};
    container[segment] = created;
    container = created;
  }
}
