// write: create or replace a whole file, making missing parent folders.
import { countLines } from './text.js';
import { encodeUtf8 } from './utf8.js';
import { displayPath, FsError, makeDirectories, parentPath, statPath, toRelative, writeFileBytes } from './wasi-fs.js';

/** Runs the `write` tool. */
export function writeTool(input) {
  const relative = toRelative(input.file_path);
  const shown = displayPath(relative);
  if (typeof input.content !== 'string') throw new FsError('invalid', relative, 'content must be a string.');
  if (relative === '.')
    return { content: 'file_path names the working folder itself; give a file path.', isError: true };
  const before = statPath(relative);
  if (before !== null && before.type === 'directory') {
    return { content: `${shown} is a directory; write needs a file path.`, isError: true };
  }
  if (before !== null && before.type !== 'regular-file') {
    return { content: `${shown} is a ${before.type}; write only replaces regular files.`, isError: true };
  }
  makeDirectories(parentPath(relative));
  const bytes = encodeUtf8(input.content);
  writeFileBytes(relative, bytes);
  const lines = countLines(input.content);
  const verb = before === null ? 'Created' : 'Overwrote';
  return {
    content: `${verb} ${shown} (${lines} line${lines === 1 ? '' : 's'}, ${bytes.length} bytes).`,
    metadata: { path: shown, created: before === null, bytes: bytes.length, lines },
  };
}
