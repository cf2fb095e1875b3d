// grep: search file contents with a linear-time regex (re2js), ripgrep-style output.
import { compilePattern, fileFilter } from './grep-options.js';
import { splitLines, truncateLine } from './text.js';
import { decodeUtf8, looksBinary } from './utf8.js';
import { walkFiles } from './walk.js';
import { displayPath, FsError, parentPath, readFileBytes, statPath, toRelative } from './wasi-fs.js';

/** Files larger than this are skipped (bytes). */
export const MAX_GREP_FILE_BYTES = 5 * 1024 * 1024;
/** Bytes one grep call reads at most. */
export const MAX_GREP_TOTAL_BYTES = 64 * 1024 * 1024;
/** Files one grep call reads at most. */
export const MAX_GREP_FILES = 20000;
/** Output lines (or files, or counts) when no head_limit is given. */
export const DEFAULT_HEAD_LIMIT = 250;
const MAX_CONTENT_LINE = 500;

function optionalCount(value, name) {
  if (value === undefined || value === null) return 0;
  if (!Number.isInteger(value) || value < 0)
    throw new FsError('invalid', '.', `${name} must be a whole number of 0 or more.`);
  return value;
}

/** Line indexes (0-based) that match, for line-by-line or whole-text (multiline) search. */
function matchingLines(regex, text, lines, multiline) {
  const hits = [];
  if (!multiline) {
    for (let index = 0; index < lines.length; index += 1) if (regex.test(lines[index])) hits.push(index);
    return hits;
  }
  const starts = [0];
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  const lineOf = (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const seen = new Set();
  const matcher = regex.matcher(text);
  while (matcher.find()) {
    const first = lineOf(matcher.start());
    const last = lineOf(Math.max(matcher.start(), matcher.end() - 1));
    for (let line = first; line <= last && line < lines.length; line += 1) seen.add(line);
    if (matcher.end() === matcher.start() && matcher.end() >= text.length) break;
  }
  return [...seen].sort((a, b) => a - b);
}

function contentBlock(shown, lines, hits, before, after, numbers) {
  const out = [];
  const hitSet = new Set(hits);
  let previousEnd = -1;
  for (const hit of hits) {
    const from = Math.max(0, hit - before, previousEnd + 1);
    const to = Math.min(lines.length - 1, hit + after);
    if (previousEnd >= 0 && from > previousEnd + 1 && (before > 0 || after > 0)) out.push('--');
    for (let index = from; index <= to; index += 1) {
      const separator = hitSet.has(index) ? ':' : '-';
      const line = truncateLine(lines[index], MAX_CONTENT_LINE).text;
      out.push(numbers ? `${shown}${separator}${index + 1}${separator}${line}` : `${shown}${separator}${line}`);
    }
    previousEnd = Math.max(previousEnd, to);
  }
  return out;
}

/** Runs the `grep` tool. */
export function grepTool(input) {
  if (typeof input.pattern !== 'string' || input.pattern === '')
    throw new FsError('invalid', '.', 'pattern must be a non-empty regular expression.');
  const mode = input.output_mode ?? 'files_with_matches';
  if (!['content', 'files_with_matches', 'count'].includes(mode)) {
    throw new FsError('invalid', '.', 'output_mode must be "content", "files_with_matches" or "count".');
  }
  const multiline = input.multiline === true;
  const regex = compilePattern(input.pattern, input.case_insensitive === true, multiline);
  const context = optionalCount(input.context, 'context');
  const before =
    input.context_before === undefined || input.context_before === null
      ? context
      : optionalCount(input.context_before, 'context_before');
  const after =
    input.context_after === undefined || input.context_after === null
      ? context
      : optionalCount(input.context_after, 'context_after');
  const headLimit =
    input.head_limit === undefined || input.head_limit === null
      ? DEFAULT_HEAD_LIMIT
      : optionalCount(input.head_limit, 'head_limit');
  const numbers = input.line_numbers !== false;
  const target = toRelative(input.path ?? '.');
  const info = statPath(target);
  if (info === null) return { content: `Path does not exist: ${displayPath(target)}.`, isError: true };
  const searchRoot = info.type === 'directory' ? target : parentPath(target);
  const accept = fileFilter(input.glob, input.type, searchRoot);
  const stats = { files: 0, bytes: 0, skippedLarge: 0, skippedBinary: 0, skippedLinked: 0, limited: false };
  const results = [];
  const searchFile = (path, size, mtimeMs, read) => {
    if (size > MAX_GREP_FILE_BYTES) {
      stats.skippedLarge += 1;
      return true;
    }
    if (stats.files >= MAX_GREP_FILES || stats.bytes + size > MAX_GREP_TOTAL_BYTES) {
      stats.limited = true;
      return false;
    }
    stats.files += 1;
    stats.bytes += size;
    const bytes = read();
    if (looksBinary(bytes)) {
      stats.skippedBinary += 1;
      return true;
    }
    const text = decodeUtf8(bytes).text;
    const lines = splitLines(text);
    const hits = matchingLines(regex, text, lines, multiline);
    if (hits.length > 0) results.push({ path, mtimeMs, lines, hits });
    return true;
  };
  if (info.type === 'regular-file') {
    searchFile(target, info.size, info.mtimeMs, () => readFileBytes(target, MAX_GREP_FILE_BYTES));
  } else if (info.type === 'directory') {
    const walk = walkFiles(target, (file) => {
      if (!accept(file.path)) return true;
      // A file with several hard links may be another name of a file the host keeps from tools
      // (the workspace's secrets): a walk never reads one; `read` by name goes through the host's check.
      if (file.links > 1) {
        stats.skippedLinked += 1;
        return true;
      }
      return searchFile(file.path, file.size, file.mtimeMs, () =>
        file.directory.readFile(file.name, MAX_GREP_FILE_BYTES),
      );
    });
    if (walk.limited) stats.limited = true;
  } else {
    return { content: `${displayPath(target)} is a ${info.type}; grep searches files and folders.`, isError: true };
  }
  return formatResults(results, { mode, before, after, numbers, headLimit, stats, pattern: input.pattern, target });
}

function formatResults(results, options) {
  const { mode, before, after, numbers, headLimit, stats, pattern, target } = options;
  const metadata = {
    pattern,
    path: displayPath(target),
    mode,
    filesSearched: stats.files,
    bytesSearched: stats.bytes,
    filesMatched: results.length,
  };
  const notes = [];
  if (stats.limited)
    notes.push(
      `The search stopped at its limits (${MAX_GREP_FILES} files or ${MAX_GREP_TOTAL_BYTES} bytes); narrow path, glob or type.`,
    );
  if (stats.skippedLinked > 0)
    notes.push(`${stats.skippedLinked} file(s) with several hard links were not searched; read them by name.`);
  if (stats.skippedLarge > 0)
    notes.push(`${stats.skippedLarge} file(s) over ${MAX_GREP_FILE_BYTES} bytes were skipped.`);
  if (results.length === 0) {
    const tail = notes.length > 0 ? `\n\n[${notes.join(' ')}]` : '';
    return {
      content: `No matches found for ${JSON.stringify(pattern)} in ${displayPath(target)}.${tail}`,
      metadata: { ...metadata, matches: 0 },
    };
  }
  let lines;
  let total;
  if (mode === 'files_with_matches') {
    results.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
    lines = results.map((result) => displayPath(result.path));
    total = lines.length;
  } else {
    results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (mode === 'count') {
      lines = results.map((result) => `${displayPath(result.path)}:${result.hits.length}`);
    } else {
      lines = [];
      for (const result of results) {
        if (lines.length > 0 && (before > 0 || after > 0)) lines.push('--');
        lines.push(...contentBlock(displayPath(result.path), result.lines, result.hits, before, after, numbers));
      }
    }
    total = lines.length;
  }
  const matchCount = results.reduce((sum, result) => sum + result.hits.length, 0);
  const limited = headLimit > 0 && lines.length > headLimit;
  const shown = limited ? lines.slice(0, headLimit) : lines;
  if (limited)
    notes.push(
      `Output limited to the first ${headLimit} of ${total} lines (head_limit); raise head_limit or narrow the search for more.`,
    );
  const header =
    mode === 'files_with_matches'
      ? `Found ${results.length} file${results.length === 1 ? '' : 's'}\n`
      : mode === 'count'
        ? `Found ${matchCount} matching line${matchCount === 1 ? '' : 's'} in ${results.length} file${results.length === 1 ? '' : 's'}\n`
        : '';
  const tail = notes.length > 0 ? `\n\n[${notes.join(' ')}]` : '';
  return {
    content: `${header}${shown.join('\n')}${tail}`,
    metadata: { ...metadata, matches: matchCount, truncated: limited },
  };
}
