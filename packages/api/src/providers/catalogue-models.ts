import { CATALOGUE_PROVIDER_MAP } from '../catalogue/catalogue-providers.js';
import { findModel, listCatalogueModels, toModelInfo } from '../catalogue/lookup.js';
import type { ModelInfo } from '../spec/provider.js';
import type { ProviderEntryBase } from './provider-entry.js';

/** The part of a row the catalogue lookups read. */
type CatalogueKey = Pick<ProviderEntryBase, 'id' | 'modelsDevId'>;

/**
 * How a registry asks the model catalogue: the fallback of `listModels()` and the lookup of bare
 * model names. The default, {@link SHIPPED_PROVIDER_CATALOGUE}, reads the catalogue shipped with the
 * package (or the one `setActiveCatalogue` installed); tests and apps may pass their own.
 */
export interface ProviderCatalogue {
  /** The models the catalogue lists for a provider; empty when it knows none. */
  listModels(entry: CatalogueKey): ModelInfo[];
  /** Whether the catalogue lists `model` (an id, an alias or a dated snapshot of one) for a provider. */
  hasModel(entry: CatalogueKey, model: string): boolean;
}

/**
 * The catalogue id to search for a row: its own id when the catalogue maps it (built-in rows, which
 * may span several catalogue providers, e.g. `zhipu` -> `zai`, `zhipuai`), else its `modelsDevId`.
 */
function catalogueProviderOf(entry: CatalogueKey): string {
  return Object.hasOwn(CATALOGUE_PROVIDER_MAP, entry.id) ? entry.id : (entry.modelsDevId ?? entry.id);
}

/** {@link ProviderCatalogue} over the active catalogue (the shipped one unless replaced). */
export const SHIPPED_PROVIDER_CATALOGUE: ProviderCatalogue = {
  listModels: (entry) => listCatalogueModels(catalogueProviderOf(entry)).map(toModelInfo),
  hasModel: (entry, model) =>
    findModel(model, { provider: catalogueProviderOf(entry), anyProviderFallback: false }) !== undefined,
};
