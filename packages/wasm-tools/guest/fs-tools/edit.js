// edit: exact string replacement that must be unambiguous, keeping the file's line endings.
import { lineNumberAt, numberLine, splitLines, truncateLine } from './text.js';
import { decodeUtf8, encodeUtf8, looksBinary, utf8Length } from './utf8.js';
import {
  displayPath,
  FsError,
  makeDirectories,
  parentPath,
  readFileBytes,
  statPath,
  toRelative,
  writeFileBytes,
} from './wasi-fs.js';

/** Largest file edit takes (bytes). */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;
const SNIPPET_CONTEXT = 3;

function countOccurrences(text, search) {
  let count = 0;
  let index = text.indexOf(search);
  while (index >= 0) {
    count += 1;
    index = text.indexOf(search, index + search.length);
  }
  return count;
}

/** Whether the file mostly ends its lines with CRLF. */
function usesCrlf(text) {
  const crlf = countOccurrences(text, '\r\n');
  if (crlf === 0) return false;
  const lf = countOccurrences(text, '\n');
  return crlf * 2 >= lf;
}

/**
 * The new file bytes: the unchanged runs are cut from the original `bytes` (which decode exactly to
 * `text`) and only the replacement is encoded, since encoding the whole text again is a per-byte
 * loop in the interpreter. `null` when a run cannot be measured (a lone surrogate at a cut).
 */
function replaceBytes(bytes, text, search, replacement, all) {
  const searchBytes = utf8Length(search);
  if (searchBytes < 0) return null;
  const replacementBytes = encodeUtf8(replacement);
  const parts = [];
  let charCursor = 0;
  let byteCursor = 0;
  let size = 0;
  for (let index = text.indexOf(search); index >= 0; index = all ? text.indexOf(search, charCursor) : -1) {
    const gap = utf8Length(text.slice(charCursor, index));
    if (gap < 0) return null;
    parts.push(bytes.subarray(byteCursor, byteCursor + gap), replacementBytes);
    size += gap + replacementBytes.length;
    byteCursor += gap + searchBytes;
    charCursor = index + search.length;
  }
  parts.push(bytes.subarray(byteCursor));
  size += bytes.length - byteCursor;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function notFoundHint(text, search) {
  if (/^\s*\d+\t/m.test(search)) {
    return ' old_string seems to include line-number prefixes from read output ("   12<tab>"); remove them.';
  }
  const wanted = search
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (wanted.length > 0) {
    const lines = splitLines(text).map((line) => line.trim());
    for (let index = 0; index + wanted.length <= lines.length; index += 1) {
      if (wanted.every((line, offset) => lines[index + offset] === line)) {
        return ` Text that matches when whitespace is ignored starts at line ${index + 1}: copy it exactly, with its indentation.`;
      }
    }
  }
  return ' Read the file again and copy the exact text, including whitespace and indentation.';
}

function snippet(text, start, length) {
  const lines = splitLines(text);
  const first = lineNumberAt(text, start);
  const last = lineNumberAt(text, start + Math.max(0, length - 1));
  const from = Math.max(1, first - SNIPPET_CONTEXT);
  const to = Math.min(lines.length, last + SNIPPET_CONTEXT);
  const out = [];
  for (let number = from; number <= to; number += 1)
    out.push(numberLine(number, truncateLine(lines[number - 1] ?? '').text));
  return out.join('\n');
}

function createWith(relative, content) {
  makeDirectories(parentPath(relative));
  const bytes = encodeUtf8(content);
  writeFileBytes(relative, bytes);
  return {
    content: `Created ${displayPath(relative)} (${bytes.length} bytes): old_string was empty and the file did not exist.`,
    metadata: { path: displayPath(relative), created: true, replacements: 0 },
  };
}

/** Runs the `edit` tool. */
export function editTool(input) {
  const relative = toRelative(input.file_path);
  const shown = displayPath(relative);
  const oldString = input.old_string;
  const newString = input.new_string;
  if (typeof oldString !== 'string' || typeof newString !== 'string') {
    throw new FsError('invalid', relative, 'old_string and new_string must be strings.');
  }
  const replaceAll = input.replace_all === true;
  if (oldString === newString) {
    return {
      content:
        'old_string and new_string are identical, so there is nothing to change. Give the new text in new_string.',
      isError: true,
    };
  }
  const info = statPath(relative);
  if (info === null) {
    if (oldString === '') return createWith(relative, newString);
    return {
      content: `File does not exist: ${shown}. To create it, use write (or edit with an empty old_string).`,
      isError: true,
    };
  }
  if (info.type !== 'regular-file')
    return { content: `${shown} is a ${info.type}; edit works on regular files.`, isError: true };
  if (info.size > MAX_EDIT_BYTES) {
    return {
      content: `${shown} is ${info.size} bytes, more than edit takes (${MAX_EDIT_BYTES} bytes).`,
      isError: true,
    };
  }
  const bytes = readFileBytes(relative, MAX_EDIT_BYTES);
  if (looksBinary(bytes)) return { content: `${shown} is a binary file; edit only changes text files.`, isError: true };
  const decoded = decodeUtf8(bytes);
  if (!decoded.valid) {
    return {
      content: `${shown} is not valid UTF-8; edit refuses to rewrite it so its bytes are not corrupted.`,
      isError: true,
    };
  }
  const text = decoded.text;
  if (oldString === '') {
    if (text !== '') {
      return {
        content: `old_string is empty but ${shown} has content. Give the text to replace, or use write to replace the whole file.`,
        isError: true,
      };
    }
    writeFileBytes(relative, encodeUtf8(newString));
    return { content: `Wrote ${shown} (it was empty).`, metadata: { path: shown, created: false, replacements: 1 } };
  }
  const crlf = usesCrlf(text);
  const search = crlf && !oldString.includes('\r') ? oldString.replaceAll('\n', '\r\n') : oldString;
  const replacement = crlf && !newString.includes('\r') ? newString.replaceAll('\n', '\r\n') : newString;
  const count = countOccurrences(text, search);
  if (count === 0) {
    return {
      content: `old_string was not found in ${shown}.${notFoundHint(text, oldString)}`,
      isError: true,
      metadata: { path: shown, matches: 0 },
    };
  }
  if (count > 1 && !replaceAll) {
    return {
      content: `Found ${count} matches of old_string in ${shown}, but it must match exactly once. Add surrounding lines to old_string to make it unique, or set replace_all to true to change all ${count}.`,
      isError: true,
      metadata: { path: shown, matches: count },
    };
  }
  const first = text.indexOf(search);
  const updated = replaceAll
    ? text.split(search).join(replacement)
    : text.slice(0, first) + replacement + text.slice(first + search.length);
  const out = replaceBytes(bytes, text, search, replacement, replaceAll) ?? encodeUtf8(updated);
  writeFileBytes(relative, out);
  const replacements = replaceAll ? count : 1;
  return {
    content: `Edited ${shown}: replaced ${replacements} occurrence${replacements === 1 ? '' : 's'}.\n${snippet(updated, first, replacement.length)}`,
    metadata: { path: shown, replacements, lineEndings: crlf ? 'crlf' : 'lf', bytes: out.length },
  };
}
