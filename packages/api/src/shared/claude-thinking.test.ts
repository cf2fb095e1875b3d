import { describe, expect, it } from 'vitest';
import { claudeThinkingRequest, claudeThinkingStyle, effortForBudget } from './claude-thinking.js';

describe('claudeThinkingStyle', () => {
  it.each([
    ['claude-sonnet-4-5', 'budget'],
    ['claude-opus-4-5-20251101', 'budget'],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'budget'],
    ['claude-opus-4-5@20251101', 'budget'],
    ['claude-opus-4-20250514', 'budget'],
    ['claude-3-7-sonnet-20250219', 'budget'],
    ['anthropic/claude-sonnet-4.5', 'budget'],
    ['claude-sonnet-4-6', 'adaptive'],
    ['anthropic/claude-opus-4.6', 'adaptive'],
    ['claude-opus-4-7', 'adaptive-only'],
    ['claude-sonnet-5', 'adaptive-only'],
    ['glm-4.6', 'unknown'],
    ['claude-test', 'unknown'],
  ])('%s -> %s', (model, style) => {
    expect(claudeThinkingStyle(model)).toBe(style);
  });
});

describe('claudeThinkingRequest', () => {
  it('turns an effort into a budget on budget-only models, and a budget into an effort on adaptive-only ones', () => {
    expect(claudeThinkingRequest({ type: 'effort', effort: 'medium' }, 'claude-sonnet-4-5')).toEqual({
      type: 'budget',
      budgetTokens: 8_192,
    });
    expect(claudeThinkingRequest({ type: 'enabled', budgetTokens: 20_000 }, 'claude-opus-4-7')).toEqual({
      type: 'adaptive',
      effort: 'high',
    });
    expect(claudeThinkingRequest({ type: 'enabled', budgetTokens: 10 }, 'claude-sonnet-4-6')).toEqual({
      type: 'budget',
      budgetTokens: 1_024,
    });
    expect(claudeThinkingRequest({ type: 'effort', effort: 'low' }, 'glm-4.6')).toEqual({
      type: 'adaptive',
      effort: 'low',
    });
    expect(claudeThinkingRequest({ type: 'effort', effort: 'low' }, 'nova-pro', 'budget')).toEqual({
      type: 'budget',
      budgetTokens: 2_048,
    });
    expect(claudeThinkingRequest({ type: 'disabled' }, 'claude-opus-4-7')).toEqual({ type: 'disabled' });
    expect(effortForBudget(4_096)).toBe('low');
    expect(effortForBudget(16_384)).toBe('medium');
  });
});
