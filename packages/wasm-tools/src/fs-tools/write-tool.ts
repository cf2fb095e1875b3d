import { z } from 'zod';
import type { FileToolSpec } from './file-tool-spec.js';

/** Input of the `write` tool. */
export const writeInputSchema = z.object({
  file_path: z
    .string()
    .min(1)
    .describe('Path of the file to write: relative to the working folder, or starting with "/" (the working folder).'),
  content: z.string().describe('The complete new content of the file (UTF-8 text).'),
});

/** `write`: create a file or replace all of it, making missing parent folders; says which it did. */
export const writeToolSpec: FileToolSpec<typeof writeInputSchema> = {
  name: 'write',
  description: [
    'Write a file in the working folder: creates it (and any missing parent folders) or replaces its whole content.',
    'The result says whether the file was created or overwritten, with its size. To change part of an existing',
    'file prefer edit, which sends only the changed text; read a file before overwriting it. Protected paths',
    '(such as .git) cannot be written.',
  ].join(' '),
  inputSchema: writeInputSchema,
  permission: 'write',
  paths: [{ field: 'file_path', access: 'write' }],
};
