import { z } from 'zod';
import type { FileToolSpec } from './file-tool-spec.js';

/** Input of the `edit` tool. */
export const editInputSchema = z.object({
  file_path: z
    .string()
    .min(1)
    .describe('Path of the file to change: relative to the working folder, or starting with "/" (the working folder).'),
  old_string: z
    .string()
    .describe(
      "The exact text to replace, including whitespace and indentation, without read's line-number prefixes. Empty only to create a new file.",
    ),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence of old_string (default false: it must occur exactly once).'),
});

/**
 * `edit`: exact string replacement. The old text must occur once (or `replace_all`), identical
 * strings are refused, and a CRLF file stays CRLF when the strings use LF.
 */
export const editToolSpec: FileToolSpec<typeof editInputSchema> = {
  name: 'edit',
  description: [
    'Replace exact text in a file. old_string must match the file exactly (whitespace and indentation included)',
    'and occur exactly once; if it occurs several times, add surrounding lines to make it unique or set',
    'replace_all to true (e.g. to rename a variable). Copy text from read output without its line-number prefix.',
    'The file keeps its line endings (CRLF stays CRLF). An empty old_string creates a file that does not exist',
    'yet. The result says how many replacements were made and shows the changed lines.',
  ].join(' '),
  inputSchema: editInputSchema,
  permission: 'write',
  paths: [{ field: 'file_path', access: 'write' }],
};
