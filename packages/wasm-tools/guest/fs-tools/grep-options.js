// grep's input checks: the regex (RE2 syntax, linear time), file types and the glob filter.
import picomatch from 'picomatch/posix';
import { RE2JS } from 're2js';
import { FsError } from './wasi-fs.js';

/** File types for grep's `type` filter, like ripgrep's `--type`. */
export const FILE_TYPES = {
  c: ['*.c', '*.h'],
  cpp: ['*.cpp', '*.cc', '*.cxx', '*.hpp', '*.hh', '*.hxx', '*.h'],
  cs: ['*.cs'],
  css: ['*.css', '*.scss', '*.sass', '*.less'],
  go: ['*.go'],
  html: ['*.html', '*.htm'],
  java: ['*.java'],
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs'],
  json: ['*.json', '*.jsonc', '*.json5'],
  kotlin: ['*.kt', '*.kts'],
  md: ['*.md', '*.markdown', '*.mdx'],
  php: ['*.php'],
  py: ['*.py', '*.pyi'],
  rb: ['*.rb'],
  rust: ['*.rs'],
  sh: ['*.sh', '*.bash', '*.zsh'],
  sql: ['*.sql'],
  swift: ['*.swift'],
  toml: ['*.toml'],
  ts: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  txt: ['*.txt'],
  xml: ['*.xml'],
  yaml: ['*.yaml', '*.yml'],
};

/** Compiles the pattern with re2js; a bad pattern is an error the model can fix. */
export function compilePattern(pattern, caseInsensitive, multiline) {
  let flags = 0;
  if (caseInsensitive) flags |= RE2JS.CASE_INSENSITIVE;
  if (multiline) flags |= RE2JS.DOTALL | RE2JS.MULTILINE;
  try {
    return RE2JS.compile(pattern, flags);
  } catch (error) {
    const detail = error?.message ? error.message : String(error);
    throw new FsError(
      'invalid',
      '.',
      `Invalid regular expression ${JSON.stringify(pattern)}: ${detail}. grep uses RE2 syntax (like ripgrep): no lookahead, lookbehind or backreferences; escape literal braces and parentheses.`,
    );
  }
}

/** A test on a file's root-relative path: `glob` (basename match when it has no `/`) and `type`. */
export function fileFilter(glob, type, searchRoot) {
  const tests = [];
  if (type !== undefined && type !== null && type !== '') {
    const patterns = FILE_TYPES[type];
    if (patterns === undefined) {
      throw new FsError(
        'invalid',
        '.',
        `Unknown file type "${type}". Known types: ${Object.keys(FILE_TYPES).join(', ')}. Or use glob, e.g. "*.vue".`,
      );
    }
    const matcher = picomatch(patterns, { dot: true, basename: true });
    tests.push((path) => matcher(path));
  }
  if (glob !== undefined && glob !== null && glob !== '') {
    const matcher = picomatch(glob, { dot: true, basename: !glob.includes('/') });
    tests.push((path) => matcher(searchRoot === '.' || !glob.includes('/') ? path : path.slice(searchRoot.length + 1)));
  }
  return (path) => tests.every((test) => test(path));
}
