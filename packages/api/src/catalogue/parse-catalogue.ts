import { z } from 'zod';
import type { Catalogue } from './catalogue-types.js';
import { canonicalCatalogue } from './serialize-catalogue.js';

// Our own format read back from a file a user keeps (e.g. a refreshed catalogue): strict, because we
// wrote it, so anything unexpected means the wrong file or a hand edit gone wrong.

const rate = z.number().finite().nonnegative();
const count = z.number().int().positive();
const modality = z.enum(['text', 'image', 'audio', 'video', 'pdf']);

const tierSchema = z.strictObject({
  inputAbove: count,
  input: rate.optional(),
  output: rate.optional(),
  cacheRead: rate.optional(),
  cacheWrite: rate.optional(),
  reasoning: rate.optional(),
});

const priceSchema = z.strictObject({
  input: rate,
  output: rate,
  cacheRead: rate.optional(),
  cacheWrite: rate.optional(),
  reasoning: rate.optional(),
  tiers: z.array(tierSchema).optional(),
});

const modelSchema = z.strictObject({
  provider: z.string().min(1),
  id: z.string().min(1),
  name: z.string(),
  family: z.string().optional(),
  aliases: z.array(z.string().min(1)).optional(),
  contextWindow: count.optional(),
  maxInput: count.optional(),
  maxOutput: count.optional(),
  price: priceSchema.optional(),
  input: z.array(modality),
  output: z.array(modality),
  reasoning: z.boolean(),
  toolCall: z.boolean(),
  attachment: z.boolean(),
  temperature: z.boolean().optional(),
  interleavedReasoning: z.union([z.literal(true), z.string().min(1)]).optional(),
  knowledge: z.string().optional(),
  releaseDate: z.string().optional(),
  status: z.enum(['alpha', 'beta', 'deprecated']).optional(),
});

const catalogueSchema = z.strictObject({
  format: z.literal('boxagnts-model-catalogue'),
  version: z.literal(1),
  source: z.string(),
  providers: z.array(
    z.strictObject({
      id: z.string().min(1),
      name: z.string(),
      env: z.array(z.string()),
      api: z.string().optional(),
      doc: z.string().optional(),
    }),
  ),
  models: z.array(modelSchema),
});

/**
 * Validates a catalogue in the project's format (parsed JSON, e.g. a file written by
 * `serializeCatalogue`) and returns it in canonical order. Throws a `TypeError` naming the first
 * problems when the value is not such a catalogue.
 *
 * @example
 * setActiveCatalogue(parseCatalogue(JSON.parse(readFileSync('my-catalogue.json', 'utf8'))));
 */
export function parseCatalogue(value: unknown): Catalogue {
  const parsed = catalogueSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new TypeError(`Not a BoxAgnts model catalogue (version 1): ${problems}`);
  }
  return canonicalCatalogue(parsed.data as Catalogue);
}
