import { defineTool, errorResult, textResult } from '@boxagnts/tools';
import { z } from 'zod';

/**
 * A URL-safe slug of a text: accents dropped ("Café" -> "cafe"), lower case, every run of other
 * characters replaced by the separator, trimmed, and cut at a separator to fit `maxLength`.
 */
export function slugify(text: string, separator: '-' | '_' = '-', maxLength = Number.POSITIVE_INFINITY): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^\\${separator}+|\\${separator}+$`, 'g'), '');
  if (slug.length <= maxLength) return slug;
  const cut = slug.slice(0, maxLength + 1);
  const lastSeparator = cut.lastIndexOf(separator);
  return (lastSeparator > 0 ? cut.slice(0, lastSeparator) : slug.slice(0, maxLength)).replace(/[-_]+$/, '');
}

/**
 * The `slugify` tool: read-only, turns a title into a URL-safe slug; inputs longer than
 * `maxInputLength` are refused by the schema.
 *
 * @example
 * const tool = createSlugifyTool({ maxInputLength: 10_000 });
 */
export function createSlugifyTool(options: { maxInputLength: number }) {
  return defineTool({
    name: 'slugify',
    description:
      'Turn a text (a title, a heading) into a URL-safe slug: lower case ASCII letters and digits joined by "-" or "_".',
    inputSchema: z.object({
      text: z.string().max(options.maxInputLength, {
        error: `the text may be at most ${options.maxInputLength} characters (plugin option maxInputLength)`,
      }),
      separator: z.enum(['-', '_']).default('-').describe('The character between words.'),
      maxLength: z.number().int().min(1).max(200).optional().describe('Longest slug; cut at a word boundary.'),
    }),
    permission: 'read-only',
    execute: async ({ text, separator, maxLength }) => {
      const slug = slugify(text, separator, maxLength);
      if (slug === '')
        return errorResult('The text has no letters or digits to build a slug from; send a text with some.');
      return textResult(slug);
    },
  });
}
