import { basename, dirname, join } from 'node:path';
import type { CommandManifest } from './command-manifest.js';

// BoxAgnts (the Rust project) ships its tools as bare command components with no manifest: the
// host knows each by its file name. These are the interfaces (names, permission levels, input
// schemas) BoxAgnts gives them; the descriptions are this project's own.

const str = { type: 'string' } as const;
const num = { type: 'number' } as const;
const bool = { type: 'boolean' } as const;

function manifest(
  name: string,
  description: string,
  permission: CommandManifest['permission'],
  properties: Record<string, unknown>,
  required: string[],
): CommandManifest {
  return { name, description, permission, inputSchema: { type: 'object', properties, required }, env: [] };
}

/** BoxAgnts' own tool components by file name, with the manifest each is loaded with. */
export const BOXAGNTS_COMPONENT_MANIFESTS: Readonly<Record<string, CommandManifest>> = Object.freeze({
  'file-read-component.wasm': manifest(
    'read',
    'Read a text file under the workspace root, with line numbers. Use offset and limit to page through a long file.',
    'read-only',
    { file_path: str, offset: num, limit: num },
    ['file_path'],
  ),
  'file-write-component.wasm': manifest(
    'write',
    'Create a file under the workspace root, or replace the whole content of an existing one.',
    'write',
    { file_path: str, content: str },
    ['file_path', 'content'],
  ),
  'file-edit-component.wasm': manifest(
    'edit',
    'Replace an exact piece of text in a file under the workspace root; old_string must occur once unless replace_all is set.',
    'write',
    { file_path: str, old_string: str, new_string: str, replace_all: bool },
    ['file_path', 'old_string', 'new_string'],
  ),
  'file-glob-component.wasm': manifest(
    'glob',
    'List the files under the workspace root (or under path) whose names match a glob pattern such as "**/*.ts".',
    'read-only',
    { pattern: str, path: str },
    ['pattern'],
  ),
  'file-grep-component.wasm': manifest(
    'grep',
    'Search file contents under the workspace root for a regular expression; output_mode picks matching lines, file names or counts.',
    'read-only',
    {
      pattern: str,
      path: str,
      type: str,
      glob: str,
      output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'] },
      context: num,
      case_insensitive: bool,
      show_line_numbers: bool,
      head_limit: num,
      multiline: bool,
    },
    ['pattern'],
  ),
  // BoxAgnts files this under its "write" level; here reaching the network is its own level.
  'web-fetch-component.wasm': manifest(
    'web-fetch',
    'Fetch a web page or file over HTTP(S) from an allowed host and return its text (readable content of HTML pages).',
    'network',
    {
      url: str,
      max_chars: num,
      max_chars_cap: num,
      max_response_bytes: num,
      timeout_seconds: num,
      max_redirects: num,
      user_agent: str,
      readability: bool,
      extract_mode: str,
    },
    ['url'],
  ),
  'bash-component.wasm': manifest(
    'bash',
    'Run a shell command in the workspace root and return its output.',
    'execute',
    { command: str },
    ['command'],
  ),
  'boxedjs-execute-component.wasm': manifest(
    'jsexec',
    'Run JavaScript (given as code, or from file_path under the workspace root) in a sandboxed engine and return what it prints.',
    'execute',
    { code: str, file_path: str },
    [],
  ),
});

/** The manifest BoxAgnts' own component `wasmPath` is loaded with, when its file name is one of them. */
export function knownBoxAgntsManifest(wasmPath: string): CommandManifest | undefined {
  const name = basename(wasmPath);
  return Object.hasOwn(BOXAGNTS_COMPONENT_MANIFESTS, name) ? BOXAGNTS_COMPONENT_MANIFESTS[name] : undefined;
}

/**
 * What to tell a user whose command component has no manifest: the file to write and a manifest
 * to start from, with the tool name taken from the file name.
 */
export function missingManifestMessage(wasmPath: string): string {
  const base = basename(wasmPath).replace(/\.wasm$/, '');
  const name =
    base
      .replace(/-component$/, '')
      .replace(/[^a-zA-Z0-9_-]/g, '_')
      .slice(0, 64) || 'tool';
  const example = {
    name,
    description: 'What the tool does, in a sentence the model reads to choose it.',
    input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
    permission: 'read-only',
  };
  return (
    `${wasmPath} is a command component (it exports wasi:cli/run) with no manifest, and not one of BoxAgnts' own ` +
    `tools (${Object.keys(BOXAGNTS_COMPONENT_MANIFESTS).join(', ')}). Write its manifest to ` +
    `${join(dirname(wasmPath), `${base}.json`)} (or ${basename(wasmPath)}.json), with the flags the program reads as input_schema properties ` +
    `(snake_case; --file-path is file_path) and a permission of read-only, write, execute or network, for example:\n` +
    JSON.stringify(example, null, 2)
  );
}
