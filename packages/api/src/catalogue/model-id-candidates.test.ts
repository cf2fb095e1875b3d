import { describe, expect, it } from 'vitest';
import { modelIdBase, modelIdCandidates } from './model-id-candidates.js';

describe('modelIdCandidates', () => {
  it('tries the id itself first, then the undated id, the Vertex spelling, -latest and @default', () => {
    expect(modelIdCandidates('claude-sonnet-4-5-20250929')).toEqual([
      'claude-sonnet-4-5-20250929',
      'claude-sonnet-4-5',
      'claude-sonnet-4-5@20250929',
      'claude-sonnet-4-5-latest',
      'claude-sonnet-4-5@default',
    ]);
  });

  it('turns a Vertex publisher id into the vendor spelling', () => {
    expect(modelIdCandidates('claude-sonnet-4-5@20250929').slice(0, 3)).toEqual([
      'claude-sonnet-4-5@20250929',
      'claude-sonnet-4-5-20250929',
      'claude-sonnet-4-5',
    ]);
    expect(modelIdCandidates('claude-opus-4-6@default')).toContain('claude-opus-4-6');
  });

  it('strips a Bedrock region prefix, then the vendor prefix and the version suffix', () => {
    const candidates = modelIdCandidates('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(candidates.slice(0, 4)).toEqual([
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'claude-sonnet-4-5-20250929',
      'claude-sonnet-4-5',
    ]);
    expect(modelIdCandidates('anthropic.claude-opus-4-6-v1')).toContain('claude-opus-4-6');
  });

  it('reads dotted Claude versions (OpenRouter style) and the ISO date suffix', () => {
    expect(modelIdCandidates('claude-sonnet-4.5')).toContain('claude-sonnet-4-5');
    expect(modelIdCandidates('claude-sonnet-4-5-2025-09-29')).toContain('claude-sonnet-4-5');
    expect(modelIdCandidates('grok-3-latest')).toEqual(['grok-3-latest', 'grok-3', 'grok-3@default']);
  });

  it('leaves four-digit suffixes and dotted non-Claude versions alone', () => {
    expect(modelIdCandidates('mistral-large-2411')).toEqual([
      'mistral-large-2411',
      'mistral-large-2411-latest',
      'mistral-large-2411@default',
    ]);
    expect(modelIdCandidates('glm-4.6')).toEqual(['glm-4.6', 'glm-4.6-latest', 'glm-4.6@default']);
  });
});

describe('modelIdBase', () => {
  it('maps every spelling of one model to its undated base', () => {
    for (const id of [
      'claude-sonnet-4-5',
      'claude-sonnet-4-5-20250929',
      'claude-sonnet-4-5@20250929',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'claude-sonnet-4.5',
    ]) {
      expect(modelIdBase(id), id).toBe('claude-sonnet-4-5');
    }
    expect(modelIdBase('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(modelIdBase('deepseek-chat')).toBe('deepseek-chat');
  });
});
