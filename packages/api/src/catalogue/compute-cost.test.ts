import { describe, expect, it } from 'vitest';
import { createUsage } from '../shared/usage.js';
import type { Usage } from '../spec/usage.js';
import { type CostResult, computeCost, type KnownCost } from './compute-cost.js';
import { findModel } from './lookup.js';

// Expected values are worked out by hand from the shipped catalogue's prices (USD per million tokens),
// which each test first pins, so a catalogue refresh that changes a price fails here and is reviewed.

function known(result: CostResult): KnownCost {
  if (result.unknown) throw new Error(`expected a known cost, got ${result.reason}: ${result.message}`);
  return result;
}

function expectBreakdown(result: CostResult, expected: KnownCost['breakdown'] & { usd: number }): void {
  const cost = known(result);
  expect(cost.breakdown.input).toBeCloseTo(expected.input, 12);
  expect(cost.breakdown.cacheRead).toBeCloseTo(expected.cacheRead, 12);
  expect(cost.breakdown.cacheWrite).toBeCloseTo(expected.cacheWrite, 12);
  expect(cost.breakdown.output).toBeCloseTo(expected.output, 12);
  expect(cost.usd).toBeCloseTo(expected.usd, 12);
  expect(cost.currency).toBe('USD');
}

describe('computeCost by hand on five vendors', () => {
  it('Anthropic claude-sonnet-4-5: cache writes and reads priced apart, reasoning counted once', () => {
    expect(findModel('claude-sonnet-4-5', { provider: 'anthropic' })?.price).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    });
    // 10,000 uncached input; 2,000 output of which 500 reasoning (priced once, inside the 2,000).
    const uncached = createUsage({ inputNoCache: 10_000, outputText: 1_500, reasoning: 500 });
    expectBreakdown(computeCost('claude-sonnet-4-5', uncached, { provider: 'anthropic' }), {
      input: (10_000 * 3) / 1e6, // 0.03
      cacheRead: 0,
      cacheWrite: 0,
      output: (2_000 * 15) / 1e6, // 0.03, not 2,500 tokens' worth
      usd: 0.06,
    });
    // 1,000 uncached + 50,000 read from cache + 5,000 written to it (input.total 56,000); 800 output.
    const cached = createUsage({ inputNoCache: 1_000, cacheRead: 50_000, cacheWrite: 5_000, outputTotal: 800 });
    expect(cached.input.total).toBe(56_000);
    const cost = computeCost('claude-sonnet-4-5-20250929', cached, { provider: 'anthropic' });
    expectBreakdown(cost, {
      input: (1_000 * 3) / 1e6, // 0.003
      cacheRead: (50_000 * 0.3) / 1e6, // 0.015
      cacheWrite: (5_000 * 3.75) / 1e6, // 0.01875
      output: (800 * 15) / 1e6, // 0.012
      usd: 0.003 + 0.015 + 0.01875 + 0.012, // 0.04875
    });
    expect(known(cost)).toMatchObject({ model: { provider: 'anthropic', id: 'claude-sonnet-4-5' }, assumptions: [] });
  });

  it('OpenAI gpt-5: cached input at the cache-read price; no cache-write price falls back to input', () => {
    expect(findModel('gpt-5', { provider: 'openai' })?.price).toEqual({ input: 1.25, output: 10, cacheRead: 0.125 });
    const uncached = createUsage({ inputTotal: 20_000, outputTotal: 5_000, reasoning: 4_000 });
    expectBreakdown(computeCost('gpt-5', uncached, { provider: 'openai' }), {
      input: (20_000 * 1.25) / 1e6, // 0.025
      cacheRead: 0,
      cacheWrite: 0,
      output: (5_000 * 10) / 1e6, // 0.05
      usd: 0.075,
    });
    const cached = createUsage({ inputTotal: 32_000, cacheRead: 30_000, outputTotal: 1_000 });
    expectBreakdown(computeCost('gpt-5', cached, { provider: 'openai' }), {
      input: (2_000 * 1.25) / 1e6, // 0.0025
      cacheRead: (30_000 * 0.125) / 1e6, // 0.00375
      cacheWrite: 0,
      output: (1_000 * 10) / 1e6, // 0.01
      usd: 0.0025 + 0.00375 + 0.01, // 0.01625
    });
    const withWrite = known(
      computeCost('gpt-5', createUsage({ inputNoCache: 0, cacheWrite: 1_000 }), { provider: 'openai' }),
    );
    expect(withWrite.breakdown.cacheWrite).toBeCloseTo((1_000 * 1.25) / 1e6, 12); // 0.00125
    expect(withWrite.assumptions).toEqual(['cache writes priced at the input price (no cache-write price)']);
  });

  it('Google gemini-2.5-pro: the long-context tier applies above 200,000 input tokens, to the whole call', () => {
    expect(findModel('gemini-2.5-pro', { provider: 'google' })?.price).toEqual({
      input: 1.25,
      output: 10,
      cacheRead: 0.125,
      tiers: [{ inputAbove: 200_000, input: 2.5, output: 15, cacheRead: 0.25 }],
    });
    const under = createUsage({ inputNoCache: 100_000, cacheRead: 50_000, outputTotal: 10_000 });
    const underCost = computeCost('gemini-2.5-pro', under, { provider: 'google' });
    expectBreakdown(underCost, {
      input: (100_000 * 1.25) / 1e6, // 0.125
      cacheRead: (50_000 * 0.125) / 1e6, // 0.00625
      cacheWrite: 0,
      output: (10_000 * 10) / 1e6, // 0.1
      usd: 0.125 + 0.00625 + 0.1, // 0.23125
    });
    expect(known(underCost).tier).toBeUndefined();
    // 150,000 uncached + 100,000 cached = 250,000 > 200,000: every token at the tier's prices.
    const over = createUsage({ inputNoCache: 150_000, cacheRead: 100_000, outputTotal: 10_000 });
    const overCost = computeCost('gemini-2.5-pro', over, { provider: 'google' });
    expectBreakdown(overCost, {
      input: (150_000 * 2.5) / 1e6, // 0.375
      cacheRead: (100_000 * 0.25) / 1e6, // 0.025
      cacheWrite: 0,
      output: (10_000 * 15) / 1e6, // 0.15
      usd: 0.375 + 0.025 + 0.15, // 0.55
    });
    expect(known(overCost).tier).toEqual({ inputAbove: 200_000 });
    // Exactly at the threshold is not over it.
    const atThreshold = known(
      computeCost('gemini-2.5-pro', createUsage({ inputNoCache: 200_000 }), { provider: 'google' }),
    );
    expect(atThreshold.usd).toBeCloseTo((200_000 * 1.25) / 1e6, 12); // 0.25
  });

  it('DeepSeek deepseek-chat: cache hits at a tenth-ish of the input price', () => {
    expect(findModel('deepseek-chat', { provider: 'deepseek' })?.price).toEqual({
      input: 0.14,
      output: 0.28,
      cacheRead: 0.028,
    });
    expectBreakdown(computeCost('deepseek-chat', createUsage({ inputNoCache: 1_000_000, outputTotal: 100_000 })), {
      input: (1_000_000 * 0.14) / 1e6, // 0.14
      cacheRead: 0,
      cacheWrite: 0,
      output: (100_000 * 0.28) / 1e6, // 0.028
      usd: 0.168,
    });
    const cached = createUsage({ inputTotal: 1_000_000, cacheRead: 800_000, outputTotal: 50_000 });
    expectBreakdown(computeCost('deepseek-chat', cached, { provider: 'deepseek' }), {
      input: (200_000 * 0.14) / 1e6, // 0.028
      cacheRead: (800_000 * 0.028) / 1e6, // 0.0224
      cacheWrite: 0,
      output: (50_000 * 0.28) / 1e6, // 0.014
      usd: 0.028 + 0.0224 + 0.014, // 0.0644
    });
  });

  it('Mistral mistral-large-latest: no cache price in the catalogue, so cache reads cost the input price', () => {
    expect(findModel('mistral-large', { provider: 'mistral' })?.price).toEqual({ input: 0.5, output: 1.5 });
    expectBreakdown(computeCost('mistral-large-latest', createUsage({ inputNoCache: 40_000, outputTotal: 4_000 })), {
      input: (40_000 * 0.5) / 1e6, // 0.02
      cacheRead: 0,
      cacheWrite: 0,
      output: (4_000 * 1.5) / 1e6, // 0.006
      usd: 0.026,
    });
    const cached = createUsage({ inputNoCache: 10_000, cacheRead: 30_000, outputTotal: 4_000 });
    const cost = computeCost('mistral-large', cached, { provider: 'mistral' });
    expectBreakdown(cost, {
      input: (10_000 * 0.5) / 1e6, // 0.005
      cacheRead: (30_000 * 0.5) / 1e6, // 0.015 (input price: the fallback)
      cacheWrite: 0,
      output: (4_000 * 1.5) / 1e6, // 0.006
      usd: 0.026,
    });
    expect(known(cost).assumptions).toEqual(['cache reads priced at the input price (no cache-read price)']);
  });
});

describe('computeCost rules', () => {
  it('prices reasoning tokens at the reasoning price where the catalogue has one (Qwen)', () => {
    expect(findModel('qwen-plus', { provider: 'qwen' })?.price).toEqual({ input: 0.4, output: 1.2, reasoning: 4 });
    const usage = createUsage({ inputNoCache: 10_000, outputText: 1_000, reasoning: 3_000 });
    expectBreakdown(computeCost('qwen-plus', usage, { provider: 'qwen' }), {
      input: (10_000 * 0.4) / 1e6, // 0.004
      cacheRead: 0,
      cacheWrite: 0,
      output: (1_000 * 1.2 + 3_000 * 4) / 1e6, // 0.0012 + 0.012 = 0.0132
      usd: 0.004 + 0.0132, // 0.0172
    });
  });

  it('scales the base cache price when a tier leaves it out (OpenRouter x-ai/grok-4.20-beta)', () => {
    expect(findModel('x-ai/grok-4.20-beta', { provider: 'openrouter' })?.price).toEqual({
      input: 2,
      output: 6,
      cacheRead: 0.2,
      tiers: [{ inputAbove: 200_000, input: 4, output: 12 }],
    });
    const usage = createUsage({ inputNoCache: 50_000, cacheRead: 200_000, outputTotal: 1_000 });
    const cost = computeCost('x-ai/grok-4.20-beta', usage, { provider: 'openrouter' });
    expectBreakdown(cost, {
      input: (50_000 * 4) / 1e6, // 0.2
      cacheRead: (200_000 * (0.2 * (4 / 2))) / 1e6, // tier cache read = 0.2 x 4/2 = 0.4 -> 0.08
      cacheWrite: 0,
      output: (1_000 * 12) / 1e6, // 0.012
      usd: 0.2 + 0.08 + 0.012, // 0.292
    });
    expect(known(cost).assumptions).toEqual([
      "cache reads priced at the base cache-read price scaled by the tier's input price",
    ]);
  });

  it('takes a catalogue row directly, and prices a free local model at 0 (a known price)', () => {
    const model = findModel('us.anthropic.claude-sonnet-4-5-20250929-v1:0', { provider: 'amazon-bedrock' });
    if (!model) throw new Error('the Bedrock row is missing from the catalogue');
    expect(known(computeCost(model, createUsage({ inputNoCache: 1_000_000 }))).usd).toBeCloseTo(3, 12); // 1M x $3
    const free = known(
      computeCost('openai/gpt-oss-20b', createUsage({ inputNoCache: 5_000 }), { provider: 'lmstudio' }),
    );
    expect(free).toMatchObject({ unknown: false, usd: 0, model: { provider: 'lmstudio' } });
  });

  it('returns an explicit unknown, never 0, for what the catalogue cannot price', () => {
    const usage = createUsage({ inputNoCache: 1_000, outputTotal: 100 });
    expect(computeCost('no-such-model', usage)).toEqual({
      unknown: true,
      reason: 'unknown-model',
      message: 'Model "no-such-model" is not in the model catalogue.',
    });
    expect(computeCost('gpt-4o', usage, { provider: 'groq' })).toMatchObject({
      unknown: true,
      reason: 'unknown-model',
    });
    // Ollama Cloud rows exist but carry no price.
    expect(computeCost('glm-4.6', usage, { provider: 'ollama' })).toEqual({
      unknown: true,
      reason: 'no-price',
      message: 'The model catalogue has no price for ollama-cloud/glm-4.6.',
    });
    // A self-hosted server is never priced at another vendor's rates.
    expect(computeCost('gpt-oss-120b', usage, { provider: 'vllm' })).toEqual({
      unknown: true,
      reason: 'no-price',
      message: 'The model catalogue has no prices for provider "vllm".',
    });
    const broken: Usage = { ...usage, output: { ...usage.output, total: Number.NaN } };
    expect(computeCost('claude-sonnet-4-5', broken)).toMatchObject({ unknown: true, reason: 'invalid-usage' });
  });
});
