import type { Catalogue } from './catalogue-types.js';
// The shipped catalogue, written by `scripts/build-catalogue.ts`. Bundlers inline it; its lookup index
// is built lazily, on the first lookup.
import shippedJson from './data/catalogue.json' with { type: 'json' };

const shipped = shippedJson as unknown as Catalogue;
let active: Catalogue | undefined;

/** The catalogue shipped with this version of the package (models.dev snapshot, see `source`). */
export function getShippedCatalogue(): Catalogue {
  return shipped;
}

/** The catalogue lookups, cost and capability checks use when given none: the shipped one unless replaced. */
export function getActiveCatalogue(): Catalogue {
  return active ?? shipped;
}

/**
 * Replaces the catalogue used by default (e.g. with one from `fetchModelsDevCatalogue` or
 * `parseCatalogue`); `undefined` restores the shipped one. Process-wide: pass `{ catalogue }` to a
 * lookup instead where one part of an app needs its own. The catalogue is frozen on first use.
 */
export function setActiveCatalogue(catalogue: Catalogue | undefined): void {
  active = catalogue;
}
