// A .gitignore-aware walk of the tree under a folder, shared by glob and grep. `.git` is always
// skipped, symbolic links are never followed, and the walk stops after a bounded number of entries.
import ignore from 'ignore';
import picomatch from 'picomatch/posix';
import { decodeUtf8 } from './utf8.js';
import { joinPath, openDirectory, readFileBytes, statPath } from './wasi-fs.js';

/** Most directory entries one walk visits. */
export const MAX_WALK_ENTRIES = 200000;
const MAX_GITIGNORE_BYTES = 256 * 1024;

// Paths the host forbids even to read (the workspace's secrets): set per call from the input's
// `exclude_paths`, matched case-insensitively like the host's path policy.
let excluded = () => false;

/** Sets the root-relative glob patterns the walks of this call skip. */
export function setExcludedPaths(patterns) {
  const list = Array.isArray(patterns)
    ? patterns.filter((pattern) => typeof pattern === 'string' && pattern !== '')
    : [];
  if (list.length === 0) {
    excluded = () => false;
    return;
  }
  const matchers = list.map((pattern) => picomatch(pattern, { dot: true, nocase: true }));
  excluded = (path) => matchers.some((matcher) => matcher(path));
}

function loadGitignore(folder, read) {
  try {
    const bytes = read();
    const rules = ignore({ allowRelativePaths: true }).add(decodeUtf8(bytes).text);
    return { folder, rules };
  } catch {
    return null;
  }
}

function relativeTo(folder, path) {
  return folder === '.' ? path : path.slice(folder.length + 1);
}

/** Whether `path` is ignored by the stack of .gitignore files (deeper files win, `!` re-includes). */
function isIgnored(stack, path, isDirectory) {
  let ignored = false;
  for (const layer of stack) {
    const inner = relativeTo(layer.folder, path);
    const result = layer.rules.test(isDirectory ? `${inner}/` : inner);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/** The .gitignore files of the folders above `start` (the root first), which also apply inside it. */
function ancestorRules(start) {
  const stack = [];
  const segments = start === '.' ? [] : start.split('/');
  for (let depth = 0; depth < segments.length; depth += 1) {
    const folder = depth === 0 ? '.' : segments.slice(0, depth).join('/');
    const file = joinPath(folder, '.gitignore');
    const info = statPath(file);
    if (info !== null && info.type === 'regular-file' && info.size <= MAX_GITIGNORE_BYTES) {
      const layer = loadGitignore(folder, () => readFileBytes(file, MAX_GITIGNORE_BYTES));
      if (layer !== null) stack.push(layer);
    }
  }
  return stack;
}

/**
 * Visits every regular file under folder `start` (root-relative) that no .gitignore excludes,
 * calling `visit({ path, name, size, mtimeMs, directory })`; `visit` returns `false` to stop.
 * `enter(path)` may refuse to descend into a folder. Returns `{ entries, limited }`.
 */
export function walkFiles(start, visit, enter = () => true) {
  const state = { entries: 0, limited: false, stopped: false };
  const walkFolder = (folder, stack) => {
    const directory = openDirectory(folder);
    try {
      walkEntries(folder, directory, stack);
    } finally {
      directory.close();
    }
  };
  const walkEntries = (folder, directory, stack) => {
    const entries = directory.list();
    let layers = stack;
    if (entries.some((entry) => entry.name === '.gitignore' && entry.type === 'regular-file')) {
      const layer = loadGitignore(folder, () => directory.readFile('.gitignore', MAX_GITIGNORE_BYTES));
      if (layer !== null) layers = [...stack, layer];
    }
    for (const entry of entries) {
      if (state.stopped) return;
      state.entries += 1;
      if (state.entries > MAX_WALK_ENTRIES) {
        state.limited = true;
        state.stopped = true;
        return;
      }
      const path = joinPath(folder, entry.name);
      if (entry.type === 'directory') {
        if (entry.name === '.git' || excluded(path) || isIgnored(layers, path, true) || !enter(path)) continue;
        walkFolder(path, layers);
      } else if (entry.type === 'regular-file') {
        if (excluded(path) || isIgnored(layers, path, false)) continue;
        let info;
        try {
          info = directory.stat(entry.name);
        } catch {
          continue;
        }
        if (
          visit({ path, name: entry.name, size: info.size, links: info.links, mtimeMs: info.mtimeMs, directory }) ===
          false
        ) {
          state.stopped = true;
          return;
        }
      }
    }
  };
  walkFolder(start, ancestorRules(start));
  return { entries: state.entries, limited: state.limited };
}
