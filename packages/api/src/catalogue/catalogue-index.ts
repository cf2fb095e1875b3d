import { CATALOGUE_SOURCE_PROVIDERS } from './catalogue-providers.js';
import type { Catalogue, CatalogueModel } from './catalogue-types.js';
import { modelIdBase } from './model-id-candidates.js';

/** Lookup tables over one catalogue, built on first use and cached per catalogue object. */
export interface CatalogueIndex {
  catalogue: Catalogue;
  /** Catalogue provider ids present. */
  providerIds: ReadonlySet<string>;
  /** Providers to search when none is given: {@link CATALOGUE_SOURCE_PROVIDERS} order, then the rest by id. */
  searchOrder: readonly string[];
  /** provider -> lower-cased id or alias -> row (an id wins over another row's alias). */
  byId: ReadonlyMap<string, ReadonlyMap<string, CatalogueModel>>;
  /** provider -> lower-cased undated base id -> rows, preferred first (see `preferredSnapshot`). */
  byBase: ReadonlyMap<string, ReadonlyMap<string, readonly CatalogueModel[]>>;
  /** provider -> rows in catalogue order. */
  rows: ReadonlyMap<string, readonly CatalogueModel[]>;
}

const cache = new WeakMap<Catalogue, CatalogueIndex>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Among one base's rows: the shortest id (no region prefix), then the latest snapshot by id. */
function preferredSnapshot(first: CatalogueModel, second: CatalogueModel): number {
  if (first.id.length !== second.id.length) return first.id.length - second.id.length;
  return first.id < second.id ? 1 : first.id > second.id ? -1 : 0;
}

function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/**
 * The index of `catalogue`, built once per catalogue object. The catalogue is frozen on first use so
 * that rows handed out by lookups cannot be changed under the index.
 */
export function indexCatalogue(catalogue: Catalogue): CatalogueIndex {
  const cached = cache.get(catalogue);
  if (cached) return cached;
  deepFreeze(catalogue);
  const rows = new Map<string, CatalogueModel[]>();
  const byId = new Map<string, Map<string, CatalogueModel>>();
  const byBase = new Map<string, Map<string, CatalogueModel[]>>();
  for (const model of catalogue.models) {
    getOrCreate(rows, model.provider, () => []).push(model);
    getOrCreate(byId, model.provider, () => new Map()).set(model.id.toLowerCase(), model);
  }
  for (const model of catalogue.models) {
    const ids = getOrCreate(byId, model.provider, () => new Map());
    for (const alias of model.aliases ?? []) if (!ids.has(alias.toLowerCase())) ids.set(alias.toLowerCase(), model);
    const bases = getOrCreate(byBase, model.provider, () => new Map());
    getOrCreate(bases, modelIdBase(model.id).toLowerCase(), () => []).push(model);
  }
  for (const bases of byBase.values()) for (const list of bases.values()) list.sort(preferredSnapshot);
  const providerIds = new Set([...catalogue.providers.map((provider) => provider.id), ...rows.keys()]);
  const ranked = CATALOGUE_SOURCE_PROVIDERS.filter((id) => providerIds.has(id));
  const rest = [...providerIds].filter((id) => !ranked.includes(id)).sort();
  const index: CatalogueIndex = { catalogue, providerIds, searchOrder: [...ranked, ...rest], byId, byBase, rows };
  cache.set(catalogue, index);
  return index;
}
