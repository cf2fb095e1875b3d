import { z } from 'zod';
import type { FileToolSpec } from './file-tool-spec.js';

const lines = (what: string) => z.number().int().min(0).max(100).optional().describe(what);

/** Input of the `grep` tool. */
export const grepInputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Regular expression (RE2 syntax, as in ripgrep) to search for, e.g. "log.*Error", "function\\s+\\w+".'),
  path: z.string().min(1).optional().describe('File or folder to search (default: the working folder).'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}".'),
  type: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Only search files of this type: js, ts, py, rust, go, java, c, cpp, md, json, yaml, toml, html, css, sh, ...',
    ),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      '"files_with_matches" (default): paths of matching files, newest first; "content": matching lines; "count": matches per file.',
    ),
  context_before: lines('Lines to show before each match (content mode only), like grep -B.'),
  context_after: lines('Lines to show after each match (content mode only), like grep -A.'),
  context: lines('Lines to show before and after each match (content mode only), like grep -C.'),
  case_insensitive: z.boolean().optional().describe('Match regardless of case (default false).'),
  line_numbers: z
    .boolean()
    .optional()
    .describe('Prefix matching lines with their line numbers (content mode, default true).'),
  head_limit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Most output lines, files or counts to return (default 250; 0 for no limit).'),
  multiline: z
    .boolean()
    .optional()
    .describe('Let the pattern span lines: "." also matches newlines and "\\n" can match (default false).'),
});

/**
 * `grep`: content search with re2js (linear time, so no pattern can hang it), ripgrep-style
 * output modes, context lines, `.gitignore` awareness and bounds on the files and bytes read.
 */
export const grepToolSpec: FileToolSpec<typeof grepInputSchema> = {
  name: 'grep',
  description: [
    'Search file contents with a regular expression (RE2 syntax like ripgrep: no lookaround or backreferences;',
    'escape literal braces, e.g. "interface\\{\\}"). Filter files with glob or type. output_mode',
    '"files_with_matches" (default) lists matching files, "content" shows matching lines (with context_before,',
    'context_after or context lines, and line numbers), "count" counts matches per file. Files excluded by',
    '.gitignore, binary files and files over 5 MB are skipped. Use multiline for patterns that span lines.',
  ].join(' '),
  inputSchema: grepInputSchema,
  permission: 'read-only',
  paths: [{ field: 'path', access: 'read', optional: true }],
};
