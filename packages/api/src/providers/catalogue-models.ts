import type { ModelInfo } from '../spec/provider.js';

/**
 * The models the shipped catalogue lists for a catalogue (models.dev) provider id, as
 * {@link ModelInfo}: the fallback of `listModels()` and the lookup for bare model names.
 */
export function catalogueModelsOf(catalogueProviderId: string): ModelInfo[] {
  // Wired to the catalogue module once it exists (it is being written alongside this registry).
  void catalogueProviderId;
  return [];
}
