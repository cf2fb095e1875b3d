// glob: files matching a pattern, newest first, .gitignore aware.
import picomatch from 'picomatch/posix';
import { walkFiles } from './walk.js';
import { displayPath, FsError, joinPath, statPath, toRelative } from './wasi-fs.js';

/** Most paths one glob call returns. */
export const MAX_GLOB_RESULTS = 100;

function relativeTo(folder, path) {
  return folder === '.' ? path : path.slice(folder.length + 1);
}

/** The literal folder a pattern starts with (`src/lib/**\/*.ts` -> `src/lib`), to walk less. */
function literalPrefix(pattern) {
  const segments = pattern.split('/');
  const literal = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?[\]{}()!+@]/.test(segment) || segment === '..' || segment === '.' || segment === '') break;
    literal.push(segment);
  }
  return literal.join('/');
}

/** Runs the `glob` tool. */
export function globTool(input) {
  if (typeof input.pattern !== 'string' || input.pattern === '')
    throw new FsError('invalid', '.', 'pattern must be a non-empty glob such as "**/*.ts".');
  const base = toRelative(input.path ?? '.');
  const pattern = input.pattern.replace(/^\.\//, '').replace(/^\/+/, '');
  const info = statPath(base);
  if (info === null) return { content: `Directory does not exist: ${displayPath(base)}.`, isError: true };
  if (info.type !== 'directory')
    return { content: `${displayPath(base)} is not a directory; glob's path must be a folder.`, isError: true };
  const matcher = picomatch(pattern, { dot: true });
  const prefix = literalPrefix(pattern);
  const start = prefix === '' ? base : joinPath(base, prefix);
  const startInfo = prefix === '' ? info : statPath(start);
  const found = [];
  let walk = { entries: 0, limited: false };
  if (startInfo !== null && startInfo.type === 'directory') {
    walk = walkFiles(start, (file) => {
      if (matcher(relativeTo(base, file.path))) found.push({ path: file.path, mtimeMs: file.mtimeMs });
    });
  }
  found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const shown = found.slice(0, MAX_GLOB_RESULTS).map((file) => displayPath(file.path));
  const metadata = {
    pattern,
    path: displayPath(base),
    matches: found.length,
    truncated: found.length > MAX_GLOB_RESULTS,
  };
  if (found.length === 0) {
    const limitNote = walk.limited ? ' (the search stopped early: too many entries; narrow the path)' : '';
    return { content: `No files found matching "${pattern}" in ${displayPath(base)}${limitNote}.`, metadata };
  }
  const notes = [];
  if (found.length > MAX_GLOB_RESULTS) {
    notes.push(
      `Results truncated: ${found.length} files matched; showing the ${MAX_GLOB_RESULTS} most recently modified. Use a more specific pattern or path.`,
    );
  }
  if (walk.limited) notes.push('The search stopped early (too many entries); narrow the path for complete results.');
  const text = notes.length === 0 ? shown.join('\n') : `${shown.join('\n')}\n\n[${notes.join(' ')}]`;
  return { content: text, metadata };
}
