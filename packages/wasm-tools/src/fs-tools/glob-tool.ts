import { z } from 'zod';
import type { FileToolSpec } from './file-tool-spec.js';

/** Input of the `glob` tool. */
export const globInputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Glob pattern relative to path, e.g. "**/*.ts", "src/**/*.{js,jsx}", "*.md" (top level only).'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('Folder to search in (default: the working folder). Leave it out rather than passing "undefined".'),
});

/** `glob`: file paths matching a pattern, newest first, `.gitignore` aware, at most 100. */
export const globToolSpec: FileToolSpec<typeof globInputSchema> = {
  name: 'glob',
  description: [
    'Find files by name with a glob pattern ("**/*.ts", "src/**/test-*.js"). Returns matching file paths sorted by',
    'modification time, newest first, at most 100 (the output says when there were more). Files excluded by',
    '.gitignore files and the .git folder are skipped. Use grep to search file contents.',
  ].join(' '),
  inputSchema: globInputSchema,
  permission: 'read-only',
  paths: [{ field: 'path', access: 'read', optional: true }],
};
