import { describe, expect, it } from 'vitest';
import { mergeProviderMetadata } from './provider-metadata.js';

describe('mergeProviderMetadata', () => {
  it('merges one level deep, later values winning, without touching the inputs', () => {
    const base = { gemini: { a: 1, b: 1 } };
    const update = { gemini: { b: 2 }, anthropic: { c: 3 } };
    expect(mergeProviderMetadata(base, update)).toEqual({ gemini: { a: 1, b: 2 }, anthropic: { c: 3 } });
    expect(base).toEqual({ gemini: { a: 1, b: 1 } });
  });

  it('returns undefined for nothing, and a copy for a lone update', () => {
    expect(mergeProviderMetadata(undefined, undefined)).toBeUndefined();
    expect(mergeProviderMetadata(undefined, {})).toBeUndefined();
    const update = { openai: { id: 'x' } };
    const merged = mergeProviderMetadata(undefined, update);
    expect(merged).toEqual(update);
    expect(merged?.openai).not.toBe(update.openai);
  });
});
