import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readConfinedFile } from '@boxagnts/tools';
import { ConfigError } from './config-error.js';
import { NAME_PATTERN } from './config-sections.js';

/** An output style: an instruction for the system prompt on how answers are written. */
export interface OutputStyle {
  name: string;
  description: string;
  /** The instruction ('' for the default style, which adds nothing). */
  prompt: string;
  /** `builtin`, or the Markdown file it came from. */
  source: string;
}

/** The styles shipped with the package; a user file with the same name replaces one. */
export const BUILTIN_OUTPUT_STYLES: readonly OutputStyle[] = [
  { name: 'default', description: 'Plain, complete answers.', prompt: '', source: 'builtin' },
  {
    name: 'concise',
    description: 'Short answers: the result first, no preamble.',
    prompt:
      'Answer as briefly as the task allows: lead with the result, skip preambles and summaries, ' +
      'use short sentences and lists, and do not restate the question.',
    source: 'builtin',
  },
  {
    name: 'explanatory',
    description: 'Explains the why behind each step, for learning a codebase.',
    prompt:
      'Explain your reasoning as you work: say why you take each step, point out the patterns and ' +
      'trade-offs you notice in the code, and end with what the user should take away.',
    source: 'builtin',
  },
];

const FRONTMATTER_KEYS = ['name', 'description'] as const;

function unquote(value: string): string {
  const trimmed = value.trim();
  const quoted = /^(["'])(.*)\1$/.exec(trimmed);
  return quoted?.[2] ?? trimmed;
}

/** Reads one style file: optional `---` frontmatter with `name` and `description`, then the instruction. */
export function parseOutputStyle(text: string, file: string): OutputStyle {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const fields: Record<string, string> = {};
  let bodyStart = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
    if (end === -1) {
      throw new ConfigError({
        reason: 'syntax',
        file,
        line: 1,
        column: 1,
        detail: 'the frontmatter has no closing "---" line.',
      });
    }
    for (let index = 1; index < end; index++) {
      const line = lines[index] ?? '';
      if (line.trim() === '' || line.trim().startsWith('#')) continue;
      const match = /^([A-Za-z][\w-]*)\s*:(.*)$/.exec(line);
      if (match === null) {
        throw new ConfigError({ reason: 'syntax', file, line: index + 1, column: 1, detail: 'expected "key: value".' });
      }
      const key = match[1]!;
      if (!(FRONTMATTER_KEYS as readonly string[]).includes(key)) {
        throw new ConfigError({
          reason: 'schema',
          file,
          line: index + 1,
          column: 1,
          field: key,
          detail: `unknown frontmatter key. Allowed: ${FRONTMATTER_KEYS.join(', ')}.`,
        });
      }
      fields[key] = unquote(match[2] ?? '');
    }
    bodyStart = end + 1;
  }
  const name = fields.name ?? basename(file).replace(/\.md$/i, '');
  if (!NAME_PATTERN.test(name)) {
    throw new ConfigError({
      reason: 'schema',
      file,
      field: 'name',
      detail: 'style names are 1-64 lowercase letters, digits, "_" or "-".',
    });
  }
  return {
    name,
    description: fields.description ?? '',
    prompt: lines.slice(bodyStart).join('\n').trim(),
    source: file,
  };
}

/** Options of {@link loadOutputStyles}. */
export interface LoadOutputStylesOptions {
  /**
   * The folder every style file's real path must stay in (a workspace passes its folder); default
   * the styles folder itself. A style file linked out of it is an `unsafe-link` ConfigError.
   */
  within?: string;
}

/** Largest style file read (256 KiB). */
export const OUTPUT_STYLE_MAX_BYTES = 256 * 1024;

/**
 * The built-in styles plus the user's `*.md` files of `directory` (sorted by name; a user style
 * replaces a built-in of the same name). A missing directory means no user styles. A style file is
 * read only when its real path stays inside `within`, and only up to {@link OUTPUT_STYLE_MAX_BYTES}.
 *
 * @example
 * const styles = await loadOutputStyles('/ws/output-styles', { within: '/ws' });
 */
export async function loadOutputStyles(
  directory: string,
  options: LoadOutputStylesOptions = {},
): Promise<OutputStyle[]> {
  const styles = new Map(BUILTIN_OUTPUT_STYLES.map((style) => [style.name, style]));
  const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw new ConfigError({ reason: 'io', file: directory, detail: `cannot be listed (${error.code}).`, cause: error });
  });
  for (const name of names.filter((entry) => entry.toLowerCase().endsWith('.md')).sort()) {
    const file = join(directory, name);
    const read = await readConfinedFile(file, {
      within: options.within ?? directory,
      maxBytes: OUTPUT_STYLE_MAX_BYTES,
    });
    if (!read.ok) {
      throw new ConfigError({
        reason: read.problem === 'outside' ? 'unsafe-link' : 'io',
        file,
        detail: `${read.message}. Output styles go into the system prompt, so they are read only as files inside ${options.within ?? directory}.`,
      });
    }
    const style = parseOutputStyle(read.text, file);
    styles.set(style.name, style);
  }
  return [...styles.values()];
}
