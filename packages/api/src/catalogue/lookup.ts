import type { ModelInfo } from '../spec/provider.js';
import { type CatalogueIndex, indexCatalogue } from './catalogue-index.js';
import { catalogueProvidersFor } from './catalogue-providers.js';
import { getActiveCatalogue } from './catalogue-store.js';
import type { Catalogue, CatalogueModel } from './catalogue-types.js';
import { modelIdBase, modelIdCandidates } from './model-id-candidates.js';

/** Options of {@link findModel}. */
export interface FindModelOptions {
  /**
   * A BoxAgnts provider id (`anthropic`, `vertex`, `zhipu`, ...; see `CATALOGUE_PROVIDER_MAP`) or a
   * catalogue provider id (`google-vertex`, `zhipuai`, ...). Only that provider's rows are searched.
   */
  provider?: string;
  /** The catalogue to search; default the active one (`setActiveCatalogue`, else the shipped one). */
  catalogue?: Catalogue;
  /**
   * When `provider` has no rows of its own (`vllm`, `volcengine`, an unknown id), search every provider
   * instead, as the model id is then the only evidence. Default `true`; cost passes `false`, so a
   * self-hosted model is never priced at another vendor's rates.
   */
  anyProviderFallback?: boolean;
}

/** The catalogue providers `provider` names, or `undefined` when it names none with rows. */
function providersToSearch(index: CatalogueIndex, provider: string): readonly string[] | undefined {
  const mapped = catalogueProvidersFor(provider, index.providerIds)?.filter((id) => index.providerIds.has(id));
  return mapped !== undefined && mapped.length > 0 ? mapped : undefined;
}

function search(index: CatalogueIndex, providers: readonly string[], modelId: string): CatalogueModel | undefined {
  for (const candidate of modelIdCandidates(modelId)) {
    const key = candidate.toLowerCase();
    for (const provider of providers) {
      const hit = index.byId.get(provider)?.get(key);
      if (hit) return hit;
    }
  }
  const base = modelIdBase(modelId).toLowerCase();
  for (const provider of providers) {
    const hit = index.byBase.get(provider)?.get(base)?.[0];
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Finds a model's catalogue row. Tries, in order: the id as given, its aliases (all case-insensitive),
 * then the spellings of `modelIdCandidates` (Vertex `@date`, Bedrock `us.anthropic.…-v1:0`, Claude
 * `4.5`, dated snapshots and `-latest`), each against the providers in order; last, any snapshot of the
 * same undated model (`claude-sonnet-4-5` on Vertex finds `claude-sonnet-4-5@20250929`). Without a
 * provider, a `provider/model` id whose prefix is a known provider searches that provider first; then
 * every provider is searched, the model's own vendor first. Returns `undefined` when nothing matches.
 *
 * @example
 * findModel('claude-sonnet-4-5-20250929')?.id; // 'claude-sonnet-4-5'
 * findModel('gemini-2.5-pro', { provider: 'vertex' })?.provider; // 'google-vertex'
 * findModel('us.anthropic.claude-sonnet-4-5-20250929-v1:0', { provider: 'amazon-bedrock' });
 */
export function findModel(modelId: string, options: FindModelOptions = {}): CatalogueModel | undefined {
  const index = indexCatalogue(options.catalogue ?? getActiveCatalogue());
  // Indexed catalogues are frozen, so an answer never changes: remember the recent ones per index.
  const key = `${options.provider ?? ''}\u0000${options.anyProviderFallback === false ? 0 : 1}\u0000${modelId}`;
  let answers = memo.get(index);
  if (answers === undefined) {
    answers = new Map();
    memo.set(index, answers);
  }
  const known = answers.get(key);
  if (known !== undefined) return known === NOT_FOUND ? undefined : known;
  const found = lookUp(index, modelId, options.provider, options.anyProviderFallback);
  if (answers.size >= MEMO_SIZE) answers.clear();
  answers.set(key, found ?? NOT_FOUND);
  return found;
}

const NOT_FOUND = 'not found';
const MEMO_SIZE = 512;
const memo = new WeakMap<CatalogueIndex, Map<string, CatalogueModel | typeof NOT_FOUND>>();

function lookUp(
  index: CatalogueIndex,
  modelId: string,
  provider: string | undefined,
  anyProviderFallback: boolean | undefined,
): CatalogueModel | undefined {
  const id = modelId.trim();
  if (id.length === 0) return undefined;
  if (provider !== undefined) {
    const providers = providersToSearch(index, provider);
    if (providers) return search(index, providers, id);
    return anyProviderFallback === false ? undefined : search(index, index.searchOrder, id);
  }
  const slash = id.indexOf('/');
  if (slash > 0 && slash < id.length - 1) {
    const prefix = id.slice(0, slash);
    const providers = providersToSearch(index, prefix);
    const hit = providers ? search(index, providers, id.slice(slash + 1)) : undefined;
    if (hit) return hit;
  }
  return search(index, index.searchOrder, id);
}

/**
 * The catalogue rows of a provider (a BoxAgnts id searches its mapped catalogue providers in order; a
 * model id seen twice is listed once, from the first). Empty for a provider the catalogue does not know.
 */
export function listCatalogueModels(provider: string, options: { catalogue?: Catalogue } = {}): CatalogueModel[] {
  const index = indexCatalogue(options.catalogue ?? getActiveCatalogue());
  const seen = new Set<string>();
  const result: CatalogueModel[] = [];
  for (const catalogueProvider of providersToSearch(index, provider) ?? []) {
    for (const model of index.rows.get(catalogueProvider) ?? []) {
      if (seen.has(model.id)) continue;
      seen.add(model.id);
      result.push(model);
    }
  }
  return result;
}

/**
 * A catalogue row as the `ModelInfo` of `LlmProvider.listModels()`, for providers whose model list
 * falls back to the catalogue.
 */
export function toModelInfo(model: CatalogueModel): ModelInfo {
  return {
    id: model.id,
    name: model.name,
    ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
    ...(model.maxOutput === undefined ? {} : { maxOutputTokens: model.maxOutput }),
    ...(model.releaseDate === undefined ? {} : { createdAt: model.releaseDate }),
  };
}
