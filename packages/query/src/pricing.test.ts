import type { Usage } from '@boxagnts/api';
import { describe, expect, it } from 'vitest';
import { CallPricer } from './pricing.js';

const USAGE: Usage = {
  input: { total: 1_000_000, noCache: 1_000_000, cacheRead: 0, cacheWrite: 0 },
  output: { total: 0, text: 0, reasoning: 0 },
};

describe('CallPricer', () => {
  it('prices a catalogue model and keeps providers and models apart', () => {
    const pricer = new CallPricer(undefined);
    expect(pricer.cost('claude-sonnet-4-6', 'anthropic', USAGE)).toBeCloseTo(3, 6);
    expect(pricer.cost('no-such-model-xyz', 'anthropic', USAGE)).toBeUndefined();
    expect(pricer.cost('claude-sonnet-4-6', 'anthropic', USAGE)).toBeCloseTo(3, 6);
    expect(pricer.isPriced('claude-sonnet-4-6', 'anthropic')).toBe(true);
    expect(pricer.isPriced('no-such-model-xyz', 'anthropic')).toBe(false);
  });
});
