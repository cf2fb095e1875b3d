// A command component that behaves like BoxAgnts' file components: flags in argv (argv[0] is the
// tool name, `read` or `edit`), the root preopened at `/`, and its result printed on stdout as
// Rust debug notation of a JSON value (`Object {"content": String(..), "is_error": Bool(..)}`),
// as serde_json's `{:?}` writes it. Refusals set `is_error`.
import { getArguments } from 'wasi:cli/environment@0.2.12';
import { getStdout } from 'wasi:cli/stdout@0.2.12';
import { getDirectories } from 'wasi:filesystem/preopens@0.2.12';
import { decodeUtf8, encodeUtf8 } from './utf8.js';

function flag(argv, name) {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

function rustString(text) {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}

function print(content, isError, metadata) {
  let text = `Object {"content": String(${rustString(content)}), "is_error": Bool(${isError})`;
  if (metadata !== undefined) {
    const entries = Object.entries(metadata).map(([key, value]) =>
      typeof value === 'number'
        ? `${rustString(key)}: Number(${value})`
        : `${rustString(key)}: String(${rustString(String(value))})`,
    );
    text += `, "metadata": Object {${entries.join(', ')}}`;
  }
  getStdout().blockingWriteAndFlush(encodeUtf8(`${text}}\n`));
}

function open(path, write) {
  const [[root]] = getDirectories();
  const relative = path.replace(/^\/+/, '');
  return write
    ? root.openAt({}, relative, { create: true, truncate: true }, { write: true })
    : root.openAt({}, relative, {}, { read: true });
}

function readText(path) {
  const file = open(path, false);
  try {
    return decodeUtf8(file.read(1 << 20, 0)[0]);
  } finally {
    file[Symbol.dispose]();
  }
}

export const run = {
  run() {
    const argv = getArguments();
    const path = flag(argv, '--file-path') ?? '';
    let text;
    try {
      text = readText(path);
    } catch {
      print(`File not found: ${path}`, true);
      return;
    }
    if (argv[0] === 'edit') {
      const oldString = flag(argv, '--old-string') ?? '';
      const count = text.split(oldString).length - 1;
      if (oldString === '' || count !== 1) {
        print(`old_string must occur exactly once in ${path}; it occurs ${count} times.`, true);
        return;
      }
      const file = open(path, true);
      try {
        file.write(encodeUtf8(text.replace(oldString, flag(argv, '--new-string') ?? '')), 0);
      } finally {
        file[Symbol.dispose]();
      }
      print(`Successfully edited ${path} (1 replacement).`, false, { file_path: path, replacements: 1 });
      return;
    }
    const numbered = text
      .split('\n')
      .filter((line, index, lines) => index < lines.length - 1 || line !== '')
      .map((line, index) => `${index + 1}\t${line}`)
      .join('\n');
    print(`${numbered}\n`, false);
  },
};
