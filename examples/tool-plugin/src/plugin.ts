import { definePlugin } from '@boxagnts/tools-manager';
import { z } from 'zod';
import { createSlugifyTool } from './slugify.js';
import { createWordCountTool } from './word-count.js';

/** Longest text the tools accept when the host sets no `maxInputLength`. */
export const DEFAULT_MAX_INPUT_LENGTH = 100_000;

/** The options a host may pass to this plugin (`loadPlugin(..., { options })`); checked strictly. */
export const textToolsOptionsSchema = z
  .object({
    /** Longest text, in characters, either tool accepts; longer inputs become error results. */
    maxInputLength: z.number().int().positive().default(DEFAULT_MAX_INPUT_LENGTH),
  })
  .strict();

/**
 * The plugin: reads its options, then registers `word_count` and `slugify`. Bad options fail the
 * load (as `setup-failed`) with a message naming the option.
 */
export const textToolsPlugin = definePlugin({
  name: 'text-tools',
  version: '0.0.0',
  setup(api) {
    const parsed = textToolsOptionsSchema.safeParse(api.options);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`);
      throw new Error(
        `invalid options (${problems.join('; ')}); pass { maxInputLength: <positive integer> } or nothing`,
      );
    }
    const { maxInputLength } = parsed.data;
    api.registerTools([createWordCountTool({ maxInputLength }), createSlugifyTool({ maxInputLength })]);
    api.logger.debug('registered text tools', { maxInputLength });
  },
});
