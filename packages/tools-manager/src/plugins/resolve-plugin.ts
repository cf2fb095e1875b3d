import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportedSubpaths, resolvePackageExports } from './package-exports.js';
import { PluginLoadError } from './plugin-load-error.js';

/** Where a plugin's code is and what its package says about it. */
export interface ResolvedPlugin {
  /** The file to import (absolute, symlinks resolved). */
  entry: string;
  /** The plugin's folder (absolute, symlinks resolved). */
  root: string;
  /** The name to use when the plugin does not name itself: package name, else folder or file name. */
  defaultName: string;
  /** The package.json `version`, when the plugin is a package. */
  version?: string;
}

interface PackageJson {
  name?: unknown;
  version?: unknown;
  main?: unknown;
  exports?: unknown;
}

const PACKAGE_NAME = /^(@[^/\\@\s]+\/[^/\\@\s]+|[^/\\@.\s][^/\\\s]*)(\/.*)?$/;

/** Whether a specifier names a file or folder (`./x`, `../x`, `/abs`, `file:`) rather than a package. */
export function isPathSpecifier(specifier: string): boolean {
  return (
    specifier === '.' ||
    specifier === '..' ||
    /^\.\.?[\\/]/.test(specifier) ||
    isAbsolute(specifier) ||
    specifier.startsWith('file:')
  );
}

async function kindOf(path: string): Promise<'file' | 'directory' | undefined> {
  try {
    const info = await stat(path);
    if (info.isFile()) return 'file';
    return info.isDirectory() ? 'directory' : undefined;
  } catch {
    return undefined;
  }
}

async function readPackageJson(directory: string, specifier: string): Promise<PackageJson | undefined> {
  const file = join(directory, 'package.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as PackageJson) : {};
  } catch (error) {
    throw new PluginLoadError({
      reason: 'no-entry',
      specifier,
      path: file,
      message: `Plugin "${specifier}": ${file} is not valid JSON (${(error as Error).message}); fix the file.`,
      cause: error,
    });
  }
}

async function firstFile(candidates: readonly string[]): Promise<string | undefined> {
  for (const candidate of candidates) if ((await kindOf(candidate)) === 'file') return candidate;
  return undefined;
}

/** The entry of a package folder for `.` or `./sub`: exports map first, else `main`, else index.js/index.mjs. */
async function packageEntry(
  directory: string,
  packageJson: PackageJson | undefined,
  subpath: string,
  conditions: ReadonlySet<string>,
  specifier: string,
): Promise<string> {
  if (packageJson?.exports !== undefined) {
    const target = resolvePackageExports(packageJson.exports, subpath, conditions);
    if (target === null) {
      throw new PluginLoadError({
        reason: 'no-entry',
        specifier,
        path: join(directory, 'package.json'),
        message: `Plugin "${specifier}": the package's "exports" map has no "${subpath}" target for the conditions ${[...conditions, 'default'].join(', ')} (it offers: ${exportedSubpaths(packageJson.exports).join(', ') || 'nothing'}); add an "import" or "default" target for "${subpath}".`,
      });
    }
    const entry = join(directory, target);
    if ((await kindOf(entry)) !== 'file') {
      throw new PluginLoadError({
        reason: 'no-entry',
        specifier,
        path: entry,
        message: `Plugin "${specifier}": the package's "exports" map points to ${target}, which does not exist in ${directory}; build the package or fix the map.`,
      });
    }
    return entry;
  }
  const base = subpath === '.' ? directory : join(directory, subpath);
  const main = subpath === '.' && typeof packageJson?.main === 'string' ? join(directory, packageJson.main) : undefined;
  const candidates = [
    ...(main === undefined ? [] : [main, `${main}.js`, `${main}.mjs`, join(main, 'index.js'), join(main, 'index.mjs')]),
    ...(subpath === '.' ? [] : [base]),
    join(base, 'index.js'),
    join(base, 'index.mjs'),
  ];
  const entry = await firstFile(candidates);
  if (entry === undefined) {
    throw new PluginLoadError({
      reason: 'no-entry',
      specifier,
      path: base,
      message: `Plugin "${specifier}": ${base} has no entry file (looked for ${candidates.map((candidate) => basename(candidate)).join(', ')}); add "exports" or "main" to its package.json, or an index.js.`,
    });
  }
  return entry;
}

async function findPackageDirectory(name: string, from: string): Promise<string | undefined> {
  for (let directory = from; ; directory = dirname(directory)) {
    const own = await readPackageJson(directory, name).catch(() => undefined);
    // Node's self-reference: a package may import itself by name when it has an "exports" map.
    if (own !== undefined) {
      if (own.name === name && own.exports !== undefined) return directory;
      break;
    }
    if (dirname(directory) === directory) break;
  }
  for (let directory = from; ; directory = dirname(directory)) {
    if (basename(directory) !== 'node_modules') {
      const candidate = join(directory, 'node_modules', name);
      if ((await kindOf(candidate)) === 'directory') return candidate;
    }
    if (dirname(directory) === directory) return undefined;
  }
}

async function resolvePath(specifier: string, from: string, conditions: ReadonlySet<string>): Promise<ResolvedPlugin> {
  const path = specifier.startsWith('file:') ? fileURLToPath(specifier) : resolve(from, specifier);
  const kind = await kindOf(path);
  if (kind === undefined) {
    throw new PluginLoadError({
      reason: 'not-found',
      specifier,
      path,
      message: `Plugin "${specifier}" was not found: ${path} does not exist (relative paths are taken from ${from}); fix the path or pass "from".`,
    });
  }
  if (kind === 'file') {
    const entry = await realpath(path);
    const stem = basename(entry, extname(entry));
    return { entry, root: dirname(entry), defaultName: stem === 'index' ? basename(dirname(entry)) : stem };
  }
  const root = await realpath(path);
  const packageJson = await readPackageJson(root, specifier);
  const entry = await realpath(await packageEntry(root, packageJson, '.', conditions, specifier));
  return describe(entry, root, packageJson, basename(root));
}

function describe(
  entry: string,
  root: string,
  packageJson: PackageJson | undefined,
  fallbackName: string,
): ResolvedPlugin {
  const name = typeof packageJson?.name === 'string' && packageJson.name !== '' ? packageJson.name : fallbackName;
  const version = typeof packageJson?.version === 'string' ? packageJson.version : undefined;
  return { entry, root, defaultName: name, ...(version === undefined ? {} : { version }) };
}

/**
 * Finds a plugin's entry file the way Node would import it: a package name (with an optional
 * subpath) is looked up in `node_modules` folders from `from` upwards, or as the package `from` is
 * in, and read through its `exports` map with the given conditions; a path (relative to `from`, or
 * absolute, or a `file:` URL) may name a file or a folder (its package.json, else index.js/index.mjs).
 * Throws a {@link PluginLoadError} (`not-found`, `no-entry`) that says what to change.
 */
export async function resolvePlugin(
  specifier: string,
  from: string,
  conditions: ReadonlySet<string>,
): Promise<ResolvedPlugin> {
  if (isPathSpecifier(specifier)) return resolvePath(specifier, from, conditions);
  const match = PACKAGE_NAME.exec(specifier);
  if (match === null) {
    throw new PluginLoadError({
      reason: 'not-found',
      specifier,
      message: `Plugin "${specifier}" is neither a package name nor a path; write a package name ("acme-tools", "@acme/tools") or a path starting with "./", "../" or "/".`,
    });
  }
  const name = match[1] as string;
  const subpath = match[2] === undefined ? '.' : `.${match[2]}`;
  const directory = await findPackageDirectory(name, from);
  if (directory === undefined) {
    throw new PluginLoadError({
      reason: 'not-found',
      specifier,
      message: `Plugin package "${name}" was not found in any node_modules folder from ${from} upwards; install it (npm install ${name}) or pass "from" inside the project that depends on it.`,
    });
  }
  const root = await realpath(directory);
  const packageJson = await readPackageJson(root, specifier);
  const entry = await realpath(await packageEntry(root, packageJson, subpath, conditions, specifier));
  return describe(entry, root, packageJson, name);
}
