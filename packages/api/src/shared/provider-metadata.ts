import type { ProviderMetadata } from '../spec/provider-metadata.js';

/**
 * Merges provider metadata one level deep: keys of `update` add to or replace those of `base` within
 * each provider's entry. Returns `undefined` when both are empty, so blocks stay free of `{}`.
 */
export function mergeProviderMetadata(
  base: ProviderMetadata | undefined,
  update: ProviderMetadata | undefined,
): ProviderMetadata | undefined {
  if (update === undefined || Object.keys(update).length === 0) return base;
  if (base === undefined)
    return Object.fromEntries(Object.entries(update).map(([key, values]) => [key, { ...values }]));
  const merged: ProviderMetadata = { ...base };
  for (const [provider, values] of Object.entries(update)) {
    merged[provider] = { ...(merged[provider] ?? {}), ...values };
  }
  return merged;
}
