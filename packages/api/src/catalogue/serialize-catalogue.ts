import type {
  Catalogue,
  CatalogueModel,
  CataloguePrice,
  CataloguePriceTier,
  CatalogueProvider,
} from './catalogue-types.js';

// One fixed key order per object and one row per line: the same catalogue always serialises to the same
// bytes (so the build script's output can be compared with the shipped file) and a price change is a
// one-line diff.

/** Copies `source`'s defined values in `keys` order. */
function pick<T extends object>(source: T, keys: readonly (keyof T)[]): T {
  const result: Partial<T> = {};
  for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
  return result as T;
}

const TIER_KEYS: readonly (keyof CataloguePriceTier)[] = [
  'inputAbove',
  'input',
  'output',
  'cacheRead',
  'cacheWrite',
  'reasoning',
];
const PRICE_KEYS: readonly (keyof CataloguePrice)[] = [
  'input',
  'output',
  'cacheRead',
  'cacheWrite',
  'reasoning',
  'tiers',
];
const MODEL_KEYS: readonly (keyof CatalogueModel)[] = [
  'provider',
  'id',
  'name',
  'family',
  'aliases',
  'contextWindow',
  'maxInput',
  'maxOutput',
  'price',
  'input',
  'output',
  'reasoning',
  'toolCall',
  'attachment',
  'temperature',
  'interleavedReasoning',
  'knowledge',
  'releaseDate',
  'status',
];
const PROVIDER_KEYS: readonly (keyof CatalogueProvider)[] = ['id', 'name', 'env', 'api', 'doc'];

function compareStrings(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}

/** A price in canonical form: fixed key order, tiers sorted by threshold, empty tiers dropped. */
export function canonicalPrice(price: CataloguePrice): CataloguePrice {
  const tiers = price.tiers
    ?.map((tier) => pick(tier, TIER_KEYS))
    .sort((first, second) => first.inputAbove - second.inputAbove);
  return pick({ ...price, tiers: tiers !== undefined && tiers.length > 0 ? tiers : undefined }, PRICE_KEYS);
}

/** A model row in canonical form: fixed key order, aliases sorted and de-duplicated, empty aliases dropped. */
export function canonicalModel(model: CatalogueModel): CatalogueModel {
  const aliases = model.aliases ? [...new Set(model.aliases)].sort(compareStrings) : undefined;
  return pick(
    {
      ...model,
      aliases: aliases !== undefined && aliases.length > 0 ? aliases : undefined,
      price: model.price ? canonicalPrice(model.price) : undefined,
    },
    MODEL_KEYS,
  );
}

/** The catalogue in canonical form: providers sorted by id, models by provider then id. */
export function canonicalCatalogue(catalogue: Catalogue): Catalogue {
  return {
    format: catalogue.format,
    version: catalogue.version,
    source: catalogue.source,
    providers: catalogue.providers
      .map((provider) => pick(provider, PROVIDER_KEYS))
      .sort((first, second) => compareStrings(first.id, second.id)),
    models: catalogue.models
      .map(canonicalModel)
      .sort((first, second) => compareStrings(first.provider, second.provider) || compareStrings(first.id, second.id)),
  };
}

/**
 * Serialises a catalogue deterministically: canonical order, one provider or model per line, a final
 * newline. `serializeCatalogue(parseCatalogue(JSON.parse(text))) === text` for any text it wrote.
 */
export function serializeCatalogue(catalogue: Catalogue): string {
  const canonical = canonicalCatalogue(catalogue);
  const array = (name: string, values: readonly object[], last: boolean) => {
    const end = last ? '' : ',';
    if (values.length === 0) return [`  ${JSON.stringify(name)}: []${end}`];
    return [
      `  ${JSON.stringify(name)}: [`,
      values.map((value) => `    ${JSON.stringify(value)}`).join(',\n'),
      `  ]${end}`,
    ];
  };
  return [
    '{',
    `  "format": ${JSON.stringify(canonical.format)},`,
    `  "version": ${JSON.stringify(canonical.version)},`,
    `  "source": ${JSON.stringify(canonical.source)},`,
    ...array('providers', canonical.providers, false),
    ...array('models', canonical.models, true),
    '}',
    '',
  ].join('\n');
}
