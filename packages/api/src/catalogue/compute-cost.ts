import type { Usage } from '../spec/usage.js';
import { indexCatalogue } from './catalogue-index.js';
import { catalogueProvidersFor } from './catalogue-providers.js';
import { getActiveCatalogue } from './catalogue-store.js';
import type { Catalogue, CatalogueModel, CataloguePrice, CataloguePriceTier } from './catalogue-types.js';
import { findModel } from './lookup.js';

/** What each part of a call cost, in USD. `output` includes reasoning tokens (counted once). */
export interface CostBreakdown {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A cost computed from catalogue prices. */
export interface KnownCost {
  unknown: false;
  usd: number;
  currency: 'USD';
  breakdown: CostBreakdown;
  /** The catalogue row whose prices were used. */
  model: { provider: string; id: string };
  /** The long-context tier applied, when the call's input exceeded one. */
  tier?: { inputAbove: number };
  /** Each fallback used for a price the catalogue lacks (see `computeCost`); empty when none was needed. */
  assumptions: string[];
}

/** Why a cost could not be computed. */
export type UnknownCostReason = 'unknown-model' | 'no-price' | 'invalid-usage';

/** No cost: the model or its price is not in the catalogue, or the usage is not token counts. Never read as 0. */
export interface UnknownCost {
  unknown: true;
  reason: UnknownCostReason;
  message: string;
}

/** The result of {@link computeCost}: check `unknown` before reading `usd`. */
export type CostResult = KnownCost | UnknownCost;

/** Options of {@link computeCost}. */
export interface ComputeCostOptions {
  /** The provider the call went to (BoxAgnts or catalogue id); only its rows are priced. */
  provider?: string;
  /** Default the active catalogue. */
  catalogue?: Catalogue;
}

interface Rates {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number | undefined;
  /** Set when a cache price came from a fallback, said in `assumptions` if such tokens were used. */
  cacheReadFallback?: string;
  cacheWriteFallback?: string;
}

const PER_MILLION = 1_000_000;

function applicableTier(price: CataloguePrice, inputTokens: number): CataloguePriceTier | undefined {
  let applied: CataloguePriceTier | undefined;
  for (const tier of price.tiers ?? []) if (inputTokens > tier.inputAbove) applied = tier;
  return applied;
}

function baseRates(price: CataloguePrice): Rates {
  return {
    input: price.input,
    output: price.output,
    cacheRead: price.cacheRead ?? price.input,
    cacheWrite: price.cacheWrite ?? price.input,
    reasoning: price.reasoning,
    cacheReadFallback:
      price.cacheRead === undefined ? 'cache reads priced at the input price (no cache-read price)' : undefined,
    cacheWriteFallback:
      price.cacheWrite === undefined ? 'cache writes priced at the input price (no cache-write price)' : undefined,
  };
}

/** A tier's rate for a cache field it leaves out: the base cache price scaled like the input price. */
function scaledCacheRate(
  tierValue: number | undefined,
  baseValue: number | undefined,
  price: CataloguePrice,
  tierInput: number,
  kind: 'read' | 'write',
): { rate: number; fallback?: string } {
  if (tierValue !== undefined) return { rate: tierValue };
  if (baseValue !== undefined && price.input > 0) {
    return {
      rate: (baseValue * tierInput) / price.input,
      fallback: `cache ${kind}s priced at the base cache-${kind} price scaled by the tier's input price`,
    };
  }
  return { rate: tierInput, fallback: `cache ${kind}s priced at the tier's input price (no cache-${kind} price)` };
}

function tierRates(price: CataloguePrice, tier: CataloguePriceTier): Rates {
  const input = tier.input ?? price.input;
  const output = tier.output ?? price.output;
  const cacheRead = scaledCacheRate(tier.cacheRead, price.cacheRead, price, input, 'read');
  const cacheWrite = scaledCacheRate(tier.cacheWrite, price.cacheWrite, price, input, 'write');
  const reasoning =
    tier.reasoning ??
    (price.reasoning !== undefined && price.output > 0 ? (price.reasoning * output) / price.output : undefined);
  return {
    input,
    output,
    cacheRead: cacheRead.rate,
    cacheWrite: cacheWrite.rate,
    reasoning,
    cacheReadFallback: cacheRead.fallback,
    cacheWriteFallback: cacheWrite.fallback,
  };
}

function isCount(value: number): boolean {
  return Number.isFinite(value) && value >= 0;
}

function validUsage(usage: Usage): boolean {
  const { input, output } = usage;
  return [
    input.total,
    input.noCache,
    input.cacheRead,
    input.cacheWrite,
    output.total,
    output.text,
    output.reasoning,
  ].every(isCount);
}

/** Prices one call's usage with one catalogue row. */
function priceUsage(model: CatalogueModel, price: CataloguePrice, usage: Usage): KnownCost {
  const { noCache, cacheRead, cacheWrite } = usage.input;
  const inputTokens = Math.max(usage.input.total, noCache + cacheRead + cacheWrite);
  const tier = applicableTier(price, inputTokens);
  const rates = tier ? tierRates(price, tier) : baseRates(price);
  const outputTokens = usage.output.total;
  const reasoningTokens = Math.min(usage.output.reasoning, outputTokens);
  const outputCost =
    rates.reasoning === undefined
      ? outputTokens * rates.output
      : (outputTokens - reasoningTokens) * rates.output + reasoningTokens * rates.reasoning;
  const breakdown: CostBreakdown = {
    input: (noCache * rates.input) / PER_MILLION,
    output: outputCost / PER_MILLION,
    cacheRead: (cacheRead * rates.cacheRead) / PER_MILLION,
    cacheWrite: (cacheWrite * rates.cacheWrite) / PER_MILLION,
  };
  const assumptions: string[] = [];
  if (cacheRead > 0 && rates.cacheReadFallback) assumptions.push(rates.cacheReadFallback);
  if (cacheWrite > 0 && rates.cacheWriteFallback) assumptions.push(rates.cacheWriteFallback);
  return {
    unknown: false,
    usd: breakdown.input + breakdown.output + breakdown.cacheRead + breakdown.cacheWrite,
    currency: 'USD',
    breakdown,
    model: { provider: model.provider, id: model.id },
    ...(tier ? { tier: { inputAbove: tier.inputAbove } } : {}),
    assumptions,
  };
}

function unknown(reason: UnknownCostReason, message: string): UnknownCost {
  return { unknown: true, reason, message };
}

/**
 * The USD cost of one call from catalogue prices (per million tokens). Input tokens not served from
 * or written to the cache are priced at the input price, cache reads at the cache-read price, cache
 * writes at the cache-write price (each token counted once: `input.total = noCache + cacheRead +
 * cacheWrite`), and all output (`output.total`, reasoning included once) at the output price, except
 * that reasoning tokens use the reasoning price where the catalogue has one.
 *
 * - Long-context tiers apply when the call's input (cached tokens included) exceeds the tier's
 *   threshold, and then to every token of the call, as Gemini and Anthropic bill them. Price each call
 *   on its own and sum the costs: a summed usage would cross thresholds no single call crossed.
 * - A missing cache price falls back to the input price (OpenAI bills cache writes as plain input;
 *   elsewhere this errs high, never low) and is said in `assumptions`. A tier without a cache price
 *   keeps the base cache-to-input ratio.
 * - An unknown model, a model without a price, or a provider the catalogue has no prices for returns
 *   `{ unknown: true, reason }`, never 0; with `provider` set, no other provider's price is borrowed.
 *
 * @example
 * const cost = computeCost('claude-sonnet-4-5', response.usage, { provider: 'anthropic' });
 * if (!cost.unknown) console.log(`$${cost.usd.toFixed(4)}`);
 */
export function computeCost(
  model: CatalogueModel | string,
  usage: Usage,
  options: ComputeCostOptions = {},
): CostResult {
  if (!validUsage(usage)) return unknown('invalid-usage', 'Usage token counts must be finite numbers of 0 or more.');
  let row: CatalogueModel | undefined;
  if (typeof model === 'string') {
    row = findModel(model, { ...options, anyProviderFallback: false });
    if (row === undefined) {
      const provider = options.provider;
      const index = indexCatalogue(options.catalogue ?? getActiveCatalogue());
      const mapped = provider === undefined ? undefined : catalogueProvidersFor(provider, index.providerIds);
      if (provider !== undefined && !mapped?.some((id) => index.providerIds.has(id))) {
        return unknown('no-price', `The model catalogue has no prices for provider "${provider}".`);
      }
      const where = provider === undefined ? '' : ` for provider "${provider}"`;
      return unknown('unknown-model', `Model "${model}" is not in the model catalogue${where}.`);
    }
  } else {
    row = model;
  }
  if (row.price === undefined) {
    return unknown('no-price', `The model catalogue has no price for ${row.provider}/${row.id}.`);
  }
  return priceUsage(row, row.price, usage);
}
