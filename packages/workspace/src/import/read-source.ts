import { lstat, readFile } from 'node:fs/promises';

/** Largest JSON file of a BoxAgnts workspace the import reads (a session with images can be large). */
export const IMPORT_MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Deepest nesting of objects and arrays the import accepts in a BoxAgnts file. */
export const IMPORT_MAX_JSON_DEPTH = 128;

/** A value read from the source, or why it could not be. */
export type SourceRead<T> = { ok: true; value: T } | { ok: false; problem: string };

/** True when `value` nests objects and arrays deeper than `max` (iterative: a hostile file cannot overflow the stack). */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Reads a file of the source workspace without following a symbolic link (a link could point
 * anywhere on the host), refusing anything but a regular file of at most `maxBytes`.
 */
export async function readSourceFile(path: string, maxBytes = IMPORT_MAX_FILE_BYTES): Promise<SourceRead<string>> {
  const stat = await lstat(path).catch((error: NodeJS.ErrnoException) => error);
  if (stat instanceof Error) {
    return {
      ok: false,
      problem: stat.code === 'ENOENT' ? 'is missing' : `cannot be read (${stat.code ?? stat.message})`,
    };
  }
  if (stat.isSymbolicLink()) return { ok: false, problem: 'is a symbolic link, which the import does not follow' };
  if (!stat.isFile()) return { ok: false, problem: 'is not a regular file' };
  if (stat.size > maxBytes) return { ok: false, problem: `is ${stat.size} bytes, over the limit of ${maxBytes}` };
  try {
    return { ok: true, value: await readFile(path, 'utf8') };
  } catch (error) {
    return { ok: false, problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
}

/** Reads and parses a JSON file of the source, bounded in size and depth. */
export async function readSourceJson(path: string, maxBytes = IMPORT_MAX_FILE_BYTES): Promise<SourceRead<unknown>> {
  const text = await readSourceFile(path, maxBytes);
  if (!text.ok) return text;
  let value: unknown;
  try {
    value = text.value.trim() === '' ? {} : JSON.parse(text.value);
  } catch (error) {
    return { ok: false, problem: `is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (jsonDepthExceeds(value, IMPORT_MAX_JSON_DEPTH)) {
    return { ok: false, problem: `nests more than ${IMPORT_MAX_JSON_DEPTH} levels deep` };
  }
  return { ok: true, value };
}

/** A plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entries of a JSON object without the keys that would reach a prototype. */
export function safeEntries(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).filter(([key]) => key !== '__proto__' && key !== 'constructor' && key !== 'prototype');
}
