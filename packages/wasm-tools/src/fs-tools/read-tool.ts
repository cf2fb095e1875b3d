import { z } from 'zod';
import type { FileToolSpec } from './file-tool-spec.js';

/** Input of the `read` tool. */
export const readInputSchema = z.object({
  file_path: z
    .string()
    .min(1)
    .describe('Path of the file to read: relative to the working folder, or starting with "/" (the working folder).'),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('1-based line number to start reading at. Use it with limit for files too long to read at once.'),
  limit: z.number().int().min(1).optional().describe('Most lines to read (default 2000).'),
});

/**
 * `read`: a text file with `cat -n` line numbers (long lines cut at 2000 characters), images by
 * their magic bytes as image content, and plain words for empty files, binaries and directories.
 */
export const readToolSpec: FileToolSpec<typeof readInputSchema> = {
  name: 'read',
  description: [
    'Read a file from the working folder. Returns up to 2000 lines by default, each prefixed with its line number',
    '("     1<tab>..."); lines longer than 2000 characters are cut. For long files pass offset (1-based) and limit to',
    'read a part; the output says when it was truncated and which offset reads on. PNG, JPEG, GIF and WebP images',
    'are returned as images. Binary files are refused; a directory is reported as such with its entries (use glob',
    'to find files). Read a file before editing it, and read several files in parallel when useful.',
  ].join(' '),
  inputSchema: readInputSchema,
  permission: 'read-only',
  paths: [{ field: 'file_path', access: 'read' }],
};
