import { lstatSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative as relativePath, resolve, sep } from 'node:path';
import { PathPolicyError } from './path-policy-error.js';
import { resolvePhysical, resolvePhysicalSync, splitSegments, type WalkResult } from './physical-walk.js';
import {
  compileProtectedPaths,
  DEFAULT_INSTRUCTION_PATHS,
  DEFAULT_PROTECTED_PATHS,
  DEFAULT_SECRET_PATHS,
} from './protected-paths.js';
import { folderHoldsMatch } from './protected-scan.js';
import type { PathAccess, PathCheck, PathPolicyOptions, ResolvedPath } from './types.js';

export { isPathPolicyError, PathPolicyError, type PathPolicyErrorReason } from './path-policy-error.js';
export { DEFAULT_INSTRUCTION_PATHS, DEFAULT_PROTECTED_PATHS, DEFAULT_SECRET_PATHS };

/** Longest path string accepted (Linux's PATH_MAX); longer input is refused as `invalid`. */
export const MAX_PATH_LENGTH = 4096;

/**
 * A compiled path policy: the real-pathed root and the protected patterns, with matchers tools
 * can use directly (e.g. to refuse deleting a folder that holds `.git`).
 */
export interface PathPolicy {
  /** The root, absolute and real-pathed (resolved once, synchronously, by {@link createPathPolicy}). */
  readonly root: string;
  /** The root as given, made absolute but not real-pathed: host paths may name it either way. */
  readonly requestedRoot: string;
  /** Patterns no tool may read or write. */
  readonly secretPaths: readonly string[];
  /** Whether `relative` is (or is inside) a secret path. */
  isSecret(relative: string): boolean;
  /** The protected patterns in force, relative to the root. */
  readonly protectedPaths: readonly string[];
  /** Whether `relative` (root-relative, `/`-separated) is protected or inside a protected path. */
  isProtected(relative: string): boolean;
  /**
   * Whether changing `relative` as a whole (deleting or renaming a folder, replacing it with a
   * file) would touch a protected path: true for protected paths, their insides and their
   * ancestors (`.`, `.boxagnts`). Use it before recursive deletes and renames of directories.
   * Patterns that can match at any depth (`**\/AGENTS.md`) are checked against what the folder
   * really holds (at most 10 000 entries are looked at; a bigger folder counts as holding one).
   */
  containsProtected(relative: string): boolean;
}

/**
 * Builds the path policy for one working root. The root is real-pathed synchronously here, so a
 * root under a symlink (`/tmp` on macOS) compares correctly with resolved paths.
 *
 * @throws {PathPolicyError} when the root does not exist, is not a directory, or a pattern is empty or has a NUL byte.
 * @example
 * const policy = createPathPolicy({ root: '/home/me/project' });
 * const check = await checkPath(policy, 'src/app.ts', 'write');
 * if (check.ok) await writeFile(check.path.absolute, text);
 */
export function createPathPolicy(options: PathPolicyOptions): PathPolicy {
  const given = options.root;
  if (typeof given !== 'string' || given === '' || given.includes('\0')) {
    throw new PathPolicyError(
      'invalid-root',
      String(given),
      'The path policy root must be a non-empty path without NUL bytes: pass the working folder as `root`.',
    );
  }
  const requestedRoot = resolve(given);
  let root: string;
  try {
    root = realpathSync(requestedRoot);
  } catch (error) {
    throw new PathPolicyError(
      'root-missing',
      given,
      `The path policy root "${requestedRoot}" does not exist: create the folder first or pass an existing one as \`root\`.`,
      { cause: error },
    );
  }
  if (!statSync(root).isDirectory()) {
    throw new PathPolicyError(
      'root-not-directory',
      given,
      `The path policy root "${requestedRoot}" is not a directory: pass the working folder, not a file, as \`root\`.`,
    );
  }
  const protectedPaths = Object.freeze([...(options.protectedPaths ?? DEFAULT_PROTECTED_PATHS)]);
  for (const pattern of protectedPaths) {
    if (typeof pattern !== 'string' || pattern.trim() === '' || pattern.includes('\0')) {
      throw new PathPolicyError(
        'invalid-pattern',
        given,
        `Protected path pattern ${JSON.stringify(pattern)} is empty or has a NUL byte: use a glob relative to the root, such as ".git" or ".boxagnts/*.db".`,
      );
    }
  }
  const matcher = compileProtectedPaths(protectedPaths);
  const secretPaths = Object.freeze([...(options.secretPaths ?? DEFAULT_SECRET_PATHS)]);
  const secrets = compileProtectedPaths(secretPaths);
  return Object.freeze({
    secretPaths,
    isSecret: (relative: string) => secrets.isProtected(relative),
    root,
    requestedRoot,
    protectedPaths,
    isProtected: (relative: string) => matcher.isProtected(relative),
    containsProtected: (relative: string) =>
      matcher.containsProtected(relative) ||
      (matcher.hasFloating && folderHoldsMatch(root, relative, (inside) => matcher.isProtected(inside))),
  });
}

const LITERAL = /^[^*?[\]{}!]+$/;

/**
 * The device:inode of each existing secret file named literally by the policy: a hard link made
 * to one elsewhere in the root (outside the tools, which cannot make links) is refused for reading
 * as the file itself would be.
 */
function secretIdentities(policy: PathPolicy): Set<string> {
  const identities = new Set<string>();
  for (const pattern of policy.secretPaths) {
    if (!LITERAL.test(pattern)) continue;
    try {
      const stats = lstatSync(join(policy.root, pattern));
      if (stats.isFile()) identities.add(`${stats.dev}:${stats.ino}`);
    } catch {
      // Absent: nothing to protect.
    }
  }
  return identities;
}

type Prepared = { ok: true; segments: string[]; lexical: string } | Extract<PathCheck, { ok: false }>;

function refuse(code: Extract<PathCheck, { ok: false }>['code'], error: string): Extract<PathCheck, { ok: false }> {
  return { ok: false, code, error };
}

function startsWithSegments(all: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= all.length && prefix.every((segment, index) => all[index] === segment);
}

/**
 * Turns the input into root-relative segments and refuses what is invalid or leaves the root by
 * its `..` segments alone. Percent signs are never decoded: `%2e%2e` is a name, not `..`.
 */
function prepare(policy: PathPolicy, inputPath: string): Prepared {
  if (typeof inputPath !== 'string' || inputPath === '') {
    return refuse(
      'invalid',
      'The path is empty: give a path relative to the working folder, or "." for the folder itself.',
    );
  }
  if (inputPath.includes('\0')) return refuse('invalid', 'The path contains a NUL byte: remove it.');
  if (inputPath.length > MAX_PATH_LENGTH) {
    return refuse('invalid', `The path is ${inputPath.length} characters long; the limit is ${MAX_PATH_LENGTH}.`);
  }
  let segments = splitSegments(inputPath);
  if (isAbsolute(inputPath)) {
    // A host path inside the root is taken as it is; any other absolute path is a guest path,
    // where `/` is the root.
    for (const base of [policy.root, policy.requestedRoot]) {
      const baseSegments = splitSegments(base);
      if (startsWithSegments(segments, baseSegments)) {
        segments = segments.slice(baseSegments.length);
        break;
      }
    }
  }
  const stack: string[] = [];
  for (const segment of segments) {
    if (segment !== '..') stack.push(segment);
    else if (stack.pop() === undefined) {
      return refuse(
        'outside-root',
        `The path "${inputPath}" leads outside the working folder: use a path inside it ("/" is the folder itself).`,
      );
    }
  }
  return { ok: true, segments, lexical: stack.length === 0 ? '.' : stack.join('/') };
}

function toRelative(root: string, absolute: string): string | undefined {
  const relative = relativePath(root, absolute);
  if (relative === '') return '.';
  if (relative === '..' || relative.startsWith(`..${sep}`) || isAbsolute(relative)) return undefined;
  return sep === '/' ? relative : relative.split(sep).join('/');
}

function describeWalkError(inputPath: string, code: string): string {
  switch (code) {
    case 'ELOOP':
      return `The path "${inputPath}" runs into a symlink loop (or more than 40 symlinks): fix or remove the link.`;
    case 'ENAMETOOLONG':
      return `The path "${inputPath}" has a name that is too long for the filesystem: shorten it.`;
    case 'EACCES':
    case 'EPERM':
      return `The path "${inputPath}" cannot be looked up: permission denied on one of its folders.`;
    default:
      return `The path "${inputPath}" cannot be looked up (${code}).`;
  }
}

function finish(
  policy: PathPolicy,
  inputPath: string,
  access: PathAccess,
  lexical: string,
  walk: WalkResult,
): PathCheck {
  if (!walk.ok) return refuse('invalid', describeWalkError(inputPath, walk.code));
  const relative = toRelative(policy.root, walk.absolute);
  if (relative === undefined) {
    return refuse(
      'outside-root',
      `The path "${inputPath}" resolves (through a symlink) to a place outside the working folder: use a path inside it.`,
    );
  }
  if (
    policy.isSecret(lexical) ||
    policy.isSecret(relative) ||
    (walk.node?.type === 'file' && walk.node.links > 1 && secretIdentities(policy).has(walk.node.identity))
  ) {
    return refuse(
      'protected',
      `The path "${inputPath}" holds secrets (${policy.secretPaths.join(', ')}): no tool may read or write it.`,
    );
  }
  if (access === 'write') {
    if (policy.isProtected(lexical) || policy.isProtected(relative)) {
      return refuse(
        'protected',
        `The path "${inputPath}" is protected (${policy.protectedPaths.join(', ')}): tools may read it but not write it.`,
      );
    }
    if (walk.node?.type === 'file' && walk.node.links > 1) {
      return refuse(
        'hard-link',
        `The file "${inputPath}" has ${walk.node.links} hard links; writing it would also change the other names, which may be outside the working folder. Write a new file instead.`,
      );
    }
  }
  return { ok: true, path: { absolute: walk.absolute, relative, exists: walk.node !== undefined } };
}

/**
 * Checks a path a tool wants to `read` or `write` against the policy and resolves it.
 *
 * Accepted: paths relative to the root; absolute host paths inside the root (real or as given);
 * any other absolute path is a guest path, `/` being the root (`/src/a.ts` is `<root>/src/a.ts`).
 * Refused: NUL bytes and over-long paths (`invalid`); `..` that leaves the root, or symlinks
 * anywhere along the path (also a dangling last one) that lead outside (`outside-root`); symlink
 * loops (`invalid`); for `write`, protected paths by the requested or the resolved name
 * (`protected`, case-insensitive) and existing files with more than one hard link (`hard-link`).
 *
 * The check is a snapshot: use `path.absolute` right away, and never give a guest a way to create
 * symlinks, or a swap between check and use could escape.
 */
export async function checkPath(policy: PathPolicy, inputPath: string, access: PathAccess): Promise<PathCheck> {
  const prepared = prepare(policy, inputPath);
  if (!prepared.ok) return prepared;
  return finish(policy, inputPath, access, prepared.lexical, await resolvePhysical(policy.root, prepared.segments));
}

/** {@link checkPath} with synchronous `fs` calls, for code that cannot await (same rules, same results). */
export function checkPathSync(policy: PathPolicy, inputPath: string, access: PathAccess): PathCheck {
  const prepared = prepare(policy, inputPath);
  if (!prepared.ok) return prepared;
  return finish(policy, inputPath, access, prepared.lexical, resolvePhysicalSync(policy.root, prepared.segments));
}

/** The path as the sandboxed guest sees it: the root is `/`, so `src/a.ts` becomes `/src/a.ts`. */
export function toGuestPath(path: ResolvedPath): string {
  return path.relative === '.' ? '/' : `/${path.relative}`;
}
