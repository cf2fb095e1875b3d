import { defineTool, textResult } from '@boxagnts/tools';
import { z } from 'zod';

/** Counts of one text. */
export interface TextCounts {
  /** Lines, as an editor shows them (a final newline does not start a new line). */
  lines: number;
  /** Runs of non-space characters. */
  words: number;
  /** User-perceived characters (grapheme clusters: "é" and "👍🏽" count as one). */
  characters: number;
  /** UTF-8 bytes. */
  bytes: number;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Counts lines, words, characters and bytes of a text. */
export function countText(text: string): TextCounts {
  const lines = text === '' ? 0 : text.replace(/(\r\n|\r|\n)$/, '').split(/\r\n|\r|\n/).length;
  const words = text.split(/\s+/u).filter((word) => word !== '').length;
  let characters = 0;
  for (const _segment of graphemes.segment(text)) characters++;
  return { lines, words, characters, bytes: Buffer.byteLength(text, 'utf8') };
}

/**
 * The `word_count` tool: read-only, counts the lines, words and characters of a text; inputs longer
 * than `maxInputLength` are refused by the schema, so the model gets an error result.
 *
 * @example
 * const tool = createWordCountTool({ maxInputLength: 10_000 });
 */
export function createWordCountTool(options: { maxInputLength: number }) {
  return defineTool({
    name: 'word_count',
    description: 'Count the lines, words, characters and UTF-8 bytes of a text.',
    inputSchema: z.object({
      text: z.string().max(options.maxInputLength, {
        error: `the text may be at most ${options.maxInputLength} characters (plugin option maxInputLength)`,
      }),
    }),
    permission: 'read-only',
    execute: async ({ text }) => {
      const counts = countText(text);
      return textResult(
        `lines: ${counts.lines}, words: ${counts.words}, characters: ${counts.characters}, bytes: ${counts.bytes}`,
        { ...counts },
      );
    },
  });
}
