// read: a file with line numbers, an image as image content, a clear word on everything else.
import { imageMediaType } from './media.js';
import { MAX_LINE_CHARS, numberLine, splitLines, truncateLine } from './text.js';
import { decodeUtf8, looksBinary, toBase64 } from './utf8.js';
import { displayPath, FsError, openDirectory, readFileBytes, statPath, toRelative } from './wasi-fs.js';

/** Lines shown when no `limit` is given. */
export const DEFAULT_READ_LIMIT = 2000;
/** Largest text file read (bytes); larger ones are refused with a hint. */
export const MAX_TEXT_BYTES = 10 * 1024 * 1024;
/** Largest image returned (bytes). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Most characters of numbered output in one call. */
export const MAX_OUTPUT_CHARS = 100000;
const DIRECTORY_LISTING = 100;

function positiveInteger(value, name, fallback) {
  if (value === undefined || value === null) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new FsError('invalid', '.', `${name} must be a whole number of at least 1.`);
  return value;
}

function describeDirectory(relative) {
  const directory = openDirectory(relative);
  let entries;
  try {
    entries = directory.list();
  } finally {
    directory.close();
  }
  const shown = entries
    .slice(0, DIRECTORY_LISTING)
    .map((entry) => (entry.type === 'directory' ? `${entry.name}/` : entry.name));
  const more = entries.length > DIRECTORY_LISTING ? `\n... and ${entries.length - DIRECTORY_LISTING} more` : '';
  const listing = entries.length === 0 ? '(it is empty)' : `It contains:\n${shown.join('\n')}${more}`;
  return {
    content: `${displayPath(relative)} is a directory, not a file; read works on files. ${listing}\nUse glob to find files in it.`,
    isError: true,
    metadata: { path: displayPath(relative), kind: 'directory', entries: entries.length },
  };
}

/** Runs the `read` tool. */
export function readTool(input) {
  const relative = toRelative(input.file_path);
  const offset = positiveInteger(input.offset, 'offset', 1);
  const limit = positiveInteger(input.limit, 'limit', DEFAULT_READ_LIMIT);
  const shown = displayPath(relative);
  const info = statPath(relative);
  if (info === null)
    return { content: `File does not exist: ${shown}. Check the path (glob can find files).`, isError: true };
  if (info.type === 'directory') return describeDirectory(relative);
  if (info.type !== 'regular-file') {
    return { content: `${shown} is a ${info.type}, not a regular file; read cannot show it.`, isError: true };
  }
  if (info.size === 0) {
    return {
      content: `The file ${shown} exists but is empty (0 bytes).`,
      metadata: { path: shown, kind: 'empty', totalLines: 0 },
    };
  }
  const tooLarge = info.size > MAX_TEXT_BYTES && info.size > MAX_IMAGE_BYTES;
  const bytes = readFileBytes(relative, tooLarge ? 16 : Math.max(MAX_TEXT_BYTES, MAX_IMAGE_BYTES));
  const mediaType = imageMediaType(bytes);
  if (mediaType !== null) {
    if (info.size > MAX_IMAGE_BYTES) {
      return {
        content: `${shown} is an image (${mediaType}) of ${info.size} bytes; the limit is ${MAX_IMAGE_BYTES} bytes.`,
        isError: true,
      };
    }
    return {
      content: `Image ${shown} (${mediaType}, ${bytes.length} bytes).`,
      images: [{ mediaType, data: toBase64(bytes) }],
      metadata: { path: shown, kind: 'image', mediaType, bytes: bytes.length },
    };
  }
  if (info.size > MAX_TEXT_BYTES) {
    return {
      content: `${shown} is ${info.size} bytes, more than read takes (${MAX_TEXT_BYTES} bytes). Use grep to find the part you need.`,
      isError: true,
    };
  }
  if (looksBinary(bytes)) {
    return {
      content: `${shown} is a binary file (${bytes.length} bytes, contains NUL bytes); read only shows text and images.`,
      isError: true,
    };
  }
  const lines = splitLines(decodeUtf8(bytes).text);
  const total = lines.length;
  if (offset > total) {
    return {
      content: `${shown} has ${total} line${total === 1 ? '' : 's'}; offset ${offset} is past the end. Use an offset from 1 to ${total}.`,
      isError: true,
      metadata: { path: shown, kind: 'text', totalLines: total },
    };
  }
  const out = [];
  let size = 0;
  let cutLines = 0;
  let last = offset - 1;
  const end = Math.min(total, offset - 1 + limit);
  for (let index = offset - 1; index < end; index += 1) {
    const line = lines[index];
    // Most lines are short: skip the truncation helper's result object for them.
    const truncated = line.length > MAX_LINE_CHARS;
    const numbered = numberLine(index + 1, truncated ? truncateLine(line, MAX_LINE_CHARS).text : line);
    if (size + numbered.length + 1 > MAX_OUTPUT_CHARS && out.length > 0) break;
    if (truncated) cutLines += 1;
    out.push(numbered);
    size += numbered.length + 1;
    last = index + 1;
  }
  const notes = [];
  if (cutLines > 0)
    notes.push(
      `${cutLines} line${cutLines === 1 ? ' was' : 's were'} longer than ${MAX_LINE_CHARS} characters and cut.`,
    );
  if (last < total) {
    notes.push(
      `Output truncated: showing lines ${offset}-${last} of ${total}. To read further, call read with offset=${last + 1}.`,
    );
  }
  const text = notes.length === 0 ? out.join('\n') : `${out.join('\n')}\n\n[${notes.join(' ')}]`;
  return {
    content: text,
    metadata: {
      path: shown,
      kind: 'text',
      totalLines: total,
      startLine: offset,
      endLine: last,
      truncated: last < total,
    },
  };
}
