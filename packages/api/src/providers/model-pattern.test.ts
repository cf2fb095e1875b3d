import { describe, expect, it } from 'vitest';
import { matchesModel } from './model-pattern.js';

describe('matchesModel', () => {
  it('compares exact ids without regard to case', () => {
    expect(matchesModel('grok-3-mini', 'Grok-3-Mini')).toBe(true);
    expect(matchesModel('grok-3-mini', 'grok-3-mini-fast')).toBe(false);
  });

  it('treats * as any run of characters and everything else literally', () => {
    expect(matchesModel('grok-3-mini*', 'grok-3-mini-fast')).toBe(true);
    expect(matchesModel('*/claude-*', 'anthropic/claude-sonnet-4.5')).toBe(true);
    expect(matchesModel('gpt-4.1', 'gpt-451')).toBe(false);
    expect(matchesModel('a+b*', 'aab')).toBe(false);
  });

  it('tests regular expressions as written, even global ones on repeated calls', () => {
    const pattern = /^o\d/g;
    expect(matchesModel(pattern, 'o3-mini')).toBe(true);
    expect(matchesModel(pattern, 'o3-mini')).toBe(true);
    expect(matchesModel(/^O\d/, 'o3')).toBe(false);
  });

  it('matches when any pattern of a list does', () => {
    expect(matchesModel(['gpt-5*', /^o\d/], 'o1')).toBe(true);
    expect(matchesModel(['gpt-5*', /^o\d/], 'gpt-4o')).toBe(false);
    expect(matchesModel([], 'anything')).toBe(false);
  });
});
