import { z } from 'zod';
import type {
  CatalogueModality,
  CatalogueModel,
  CatalogueModelStatus,
  CataloguePrice,
  CataloguePriceTier,
} from './catalogue-types.js';

// models.dev's JSON crosses a trust boundary (it is fetched live): each model is validated on its own
// and leniently (unknown fields ignored, unknown modality values dropped), so one odd row never sinks
// the refresh. The field meanings follow models.dev's schema:
// https://github.com/anomalyco/models.dev (packages/core/src/schema.ts).

const rate = z.number().finite().nonnegative();

const ratesSchema = z.object({
  input: rate.optional(),
  output: rate.optional(),
  cache_read: rate.optional(),
  cache_write: rate.optional(),
  reasoning: rate.optional(),
});

const costSchema = z.looseObject({
  input: rate,
  output: rate,
  cache_read: rate.optional(),
  cache_write: rate.optional(),
  reasoning: rate.optional(),
  // Newer models.dev: `tiers: [{ input, output, ..., tier: { type: 'context', size } }]`; parsed per entry.
  tiers: z.array(z.unknown()).optional(),
});

const contextTierSchema = ratesSchema.extend({
  tier: z.object({ type: z.literal('context'), size: z.number().int().positive() }),
});

const limitSchema = z.object({
  context: z.number().nonnegative().optional(),
  input: z.number().nonnegative().optional(),
  output: z.number().nonnegative().optional(),
});

/** One model of models.dev's `api.json`, as much of it as the catalogue uses. */
export const modelsDevModelSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  family: z.string().optional(),
  attachment: z.boolean(),
  reasoning: z.boolean(),
  tool_call: z.union([z.boolean(), z.object({ supported: z.boolean() })]),
  temperature: z.boolean().optional(),
  interleaved: z.union([z.boolean(), z.object({ field: z.string().min(1) })]).optional(),
  knowledge: z.string().optional(),
  release_date: z.string().optional(),
  modalities: z.object({ input: z.array(z.string()), output: z.array(z.string()) }),
  cost: costSchema.optional(),
  limit: limitSchema,
  status: z.string().optional(),
});

/** One provider of models.dev's `api.json`; its models are validated one by one. */
export const modelsDevProviderSchema = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  env: z.array(z.string()).optional(),
  api: z.string().optional(),
  doc: z.string().optional(),
  models: z.record(z.string(), z.unknown()),
});

export type ModelsDevModel = z.infer<typeof modelsDevModelSchema>;
export type ModelsDevProvider = z.infer<typeof modelsDevProviderSchema>;

const MODALITIES: ReadonlySet<string> = new Set<CatalogueModality>(['text', 'image', 'audio', 'video', 'pdf']);
const STATUSES: ReadonlySet<string> = new Set<CatalogueModelStatus>(['alpha', 'beta', 'deprecated']);
/** models.dev's older tier spelling: `context_over_200k: { input, output, cache_read, cache_write }`. */
const CONTEXT_OVER_KEY = /^context_over_(\d+)k$/;

function modalities(values: readonly string[]): CatalogueModality[] {
  return [...new Set(values.filter((value) => MODALITIES.has(value)))] as CatalogueModality[];
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? value : undefined;
}

function tierFromRates(inputAbove: number, rates: z.infer<typeof ratesSchema>): CataloguePriceTier {
  return {
    inputAbove,
    input: rates.input,
    output: rates.output,
    cacheRead: rates.cache_read,
    cacheWrite: rates.cache_write,
    reasoning: rates.reasoning,
  };
}

/** Long-context tiers from both spellings; the `tiers` array wins where both name the same threshold. */
function priceTiers(cost: z.infer<typeof costSchema>): CataloguePriceTier[] {
  const byThreshold = new Map<number, CataloguePriceTier>();
  for (const [key, value] of Object.entries(cost)) {
    const match = CONTEXT_OVER_KEY.exec(key);
    const rates = match ? ratesSchema.safeParse(value) : undefined;
    if (match && rates?.success)
      byThreshold.set(Number(match[1]) * 1000, tierFromRates(Number(match[1]) * 1000, rates.data));
  }
  for (const entry of cost.tiers ?? []) {
    const parsed = contextTierSchema.safeParse(entry);
    if (parsed.success) byThreshold.set(parsed.data.tier.size, tierFromRates(parsed.data.tier.size, parsed.data));
  }
  return [...byThreshold.values()].sort((first, second) => first.inputAbove - second.inputAbove);
}

function price(cost: z.infer<typeof costSchema> | undefined): CataloguePrice | undefined {
  if (cost === undefined) return undefined;
  const tiers = priceTiers(cost);
  return {
    input: cost.input,
    output: cost.output,
    cacheRead: cost.cache_read,
    cacheWrite: cost.cache_write,
    reasoning: cost.reasoning,
    tiers: tiers.length > 0 ? tiers : undefined,
  };
}

/** Converts one validated models.dev model into a catalogue row (undefined fields are dropped on write). */
export function toCatalogueModel(provider: string, model: ModelsDevModel): CatalogueModel {
  const interleaved = model.interleaved;
  return {
    provider,
    id: model.id,
    name: model.name ?? model.id,
    family: model.family,
    contextWindow: positive(model.limit.context),
    maxInput: positive(model.limit.input),
    maxOutput: positive(model.limit.output),
    price: price(model.cost),
    input: modalities(model.modalities.input),
    output: modalities(model.modalities.output),
    reasoning: model.reasoning,
    toolCall: typeof model.tool_call === 'boolean' ? model.tool_call : model.tool_call.supported,
    attachment: model.attachment,
    temperature: model.temperature,
    interleavedReasoning: interleaved === true ? true : typeof interleaved === 'object' ? interleaved.field : undefined,
    knowledge: model.knowledge,
    releaseDate: model.release_date,
    status:
      model.status !== undefined && STATUSES.has(model.status) ? (model.status as CatalogueModelStatus) : undefined,
  };
}
