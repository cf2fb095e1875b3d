import { lstatSync, readlinkSync } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse } from 'node:path';

/** Linux follows at most 40 symlinks in one lookup; the walk stops at the same count (ELOOP). */
export const MAX_SYMLINK_HOPS = 40;

/** One filesystem question the walk asks its driver. */
export type WalkRequest = { kind: 'lstat'; path: string } | { kind: 'readlink'; path: string };

/** What the driver answers: a node's type and link count, a link's target, or an error code. */
export type WalkAnswer =
  | { kind: 'node'; type: 'file' | 'directory' | 'symlink' | 'other'; links: number; identity: string }
  | { kind: 'target'; target: string }
  | { kind: 'error'; code: string };

/** Where a path physically leads, or the error code that stopped the walk. */
export type WalkResult =
  | {
      ok: true;
      /** The physical path: every existing symlink resolved, `..` taken from the real parent. */
      absolute: string;
      /** Set when the whole path exists: the type and hard-link count of what is there. */
      node: { type: 'file' | 'directory' | 'other'; links: number; identity: string } | undefined;
    }
  | { ok: false; code: string; path: string };

/** Splits a path into its segments (`/`, and `\` on Windows), dropping empty ones and `.`. */
export function splitSegments(path: string): string[] {
  const separator = process.platform === 'win32' ? /[\\/]+/ : /\/+/;
  return path.split(separator).filter((segment) => segment !== '' && segment !== '.');
}

/**
 * Resolves `segments` from the real directory `start` the way the kernel does: one segment at a
 * time, following every symlink (also a dangling last one, whose target is where a write would
 * land) and taking `..` from the physical parent. The part after the first missing segment is
 * appended as it is. A generator so the sync and async drivers share the exact same logic.
 */
export function* walkPhysical(
  start: string,
  segments: readonly string[],
): Generator<WalkRequest, WalkResult, WalkAnswer> {
  const queue = [...segments];
  let current = start;
  // Segments appended below the first missing one; a `..` that climbs back out of them returns to
  // real, existing directories, which must be resolved again (they may hold symlinks).
  let missingDepth = 0;
  let hops = 0;
  let node: { type: 'file' | 'directory' | 'other'; links: number; identity: string } | undefined;
  let nodeKnown = false;
  for (let segment = queue.shift(); segment !== undefined; segment = queue.shift()) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      current = dirname(current);
      nodeKnown = false;
      if (missingDepth > 0) missingDepth -= 1;
      continue;
    }
    const candidate = join(current, segment);
    if (missingDepth > 0) {
      current = candidate;
      missingDepth += 1;
      continue;
    }
    const answer = yield { kind: 'lstat', path: candidate };
    if (answer.kind === 'error') {
      if (answer.code === 'ENOENT' || answer.code === 'ENOTDIR') {
        missingDepth = 1;
        current = candidate;
        continue;
      }
      return { ok: false, code: answer.code, path: candidate };
    }
    if (answer.kind !== 'node') return { ok: false, code: 'EINVAL', path: candidate };
    if (answer.type === 'symlink') {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) return { ok: false, code: 'ELOOP', path: candidate };
      const link = yield { kind: 'readlink', path: candidate };
      if (link.kind === 'error') return { ok: false, code: link.code, path: candidate };
      if (link.kind !== 'target') return { ok: false, code: 'EINVAL', path: candidate };
      if (isAbsolute(link.target)) current = parse(link.target).root;
      queue.unshift(...splitSegments(link.target));
      nodeKnown = false;
      continue;
    }
    current = candidate;
    node = { type: answer.type, links: answer.links, identity: answer.identity };
    nodeKnown = true;
  }
  if (missingDepth > 0) return { ok: true, absolute: current, node: undefined };
  if (!nodeKnown) {
    // No segment, or the last one was `..` or a symlink's target root: look at where we ended.
    const answer = yield { kind: 'lstat', path: current };
    if (answer.kind === 'error') {
      if (answer.code === 'ENOENT' || answer.code === 'ENOTDIR')
        return { ok: true, absolute: current, node: undefined };
      return { ok: false, code: answer.code, path: current };
    }
    if (answer.kind !== 'node' || answer.type === 'symlink') return { ok: false, code: 'EINVAL', path: current };
    node = { type: answer.type, links: answer.links, identity: answer.identity };
  }
  return { ok: true, absolute: current, node };
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EIO';
}

function nodeType(stats: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }) {
  if (stats.isSymbolicLink()) return 'symlink' as const;
  if (stats.isFile()) return 'file' as const;
  if (stats.isDirectory()) return 'directory' as const;
  return 'other' as const;
}

function answerSync(request: WalkRequest): WalkAnswer {
  try {
    if (request.kind === 'readlink') return { kind: 'target', target: readlinkSync(request.path) };
    const stats = lstatSync(request.path);
    return { kind: 'node', type: nodeType(stats), links: stats.nlink, identity: `${stats.dev}:${stats.ino}` };
  } catch (error) {
    return { kind: 'error', code: errorCode(error) };
  }
}

async function answerAsync(request: WalkRequest): Promise<WalkAnswer> {
  try {
    if (request.kind === 'readlink') return { kind: 'target', target: await readlink(request.path) };
    const stats = await lstat(request.path);
    return { kind: 'node', type: nodeType(stats), links: stats.nlink, identity: `${stats.dev}:${stats.ino}` };
  } catch (error) {
    return { kind: 'error', code: errorCode(error) };
  }
}

/** Runs {@link walkPhysical} with synchronous `fs` calls. */
export function resolvePhysicalSync(start: string, segments: readonly string[]): WalkResult {
  const walk = walkPhysical(start, segments);
  let step = walk.next();
  while (!step.done) step = walk.next(answerSync(step.value));
  return step.value;
}

/** Runs {@link walkPhysical} with asynchronous `fs` calls. */
export async function resolvePhysical(start: string, segments: readonly string[]): Promise<WalkResult> {
  const walk = walkPhysical(start, segments);
  let step = walk.next();
  while (!step.done) step = walk.next(await answerAsync(step.value));
  return step.value;
}
