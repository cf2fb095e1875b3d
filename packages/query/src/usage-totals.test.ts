import { findModel, type Usage } from '@boxagnts/api';
import { describe, expect, it } from 'vitest';
import { callCost, createRunUsage, recordCall } from './usage-totals.js';

const USAGE: Usage = {
  input: { total: 1_000_000, noCache: 1_000_000, cacheRead: 0, cacheWrite: 0 },
  output: { total: 0, text: 0, reasoning: 0 },
};

describe('usage totals', () => {
  it('prices a catalogue model the same on every call, by id or by row', () => {
    const first = callCost('claude-sonnet-4-6', 'anthropic', USAGE, undefined);
    const again = callCost('claude-sonnet-4-6', 'anthropic', USAGE, undefined);
    const row = findModel('claude-sonnet-4-6', { provider: 'anthropic' });
    expect(row?.id).toBe('claude-sonnet-4-6');
    expect(first).toBeGreaterThan(0);
    expect(again).toBe(first);
    expect(callCost(row ?? 'missing', 'anthropic', USAGE, undefined)).toBe(first);
  });

  it('keeps the lookup answers of different providers and fallbacks apart, and unknown models unknown', () => {
    expect(findModel('no-such-model-xyz', { provider: 'anthropic' })).toBeUndefined();
    expect(findModel('no-such-model-xyz', { provider: 'anthropic' })).toBeUndefined();
    expect(callCost('no-such-model-xyz', 'anthropic', USAGE, undefined)).toBeUndefined();
    const anywhere = findModel('claude-sonnet-4-6', { provider: 'vllm' });
    const strict = findModel('claude-sonnet-4-6', { provider: 'vllm', anyProviderFallback: false });
    expect(anywhere?.id).toBe('claude-sonnet-4-6');
    expect(strict).toBeUndefined();
    expect(findModel('claude-sonnet-4-6', { provider: 'vllm' })).toBe(anywhere);
  });

  it('adds each call to the total and to its model', () => {
    const totals = createRunUsage();
    recordCall(totals, 'model-a', USAGE, 2);
    recordCall(totals, 'model-a', USAGE, undefined);
    expect(totals.total).toMatchObject({ calls: 2, costUsd: 2, unpricedCalls: 1 });
    expect(totals.total.usage.input.total).toBe(2_000_000);
    expect(totals.byModel['model-a']).toMatchObject({ calls: 2, costUsd: 2, unpricedCalls: 1 });
  });
});
