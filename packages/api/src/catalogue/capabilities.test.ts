import { describe, expect, it } from 'vitest';
import { modelCapabilities } from './capabilities.js';

describe('modelCapabilities', () => {
  it('says what a model takes and how much, from its catalogue row', () => {
    expect(modelCapabilities('claude-sonnet-4-5-20250929')).toEqual({
      model: { provider: 'anthropic', id: 'claude-sonnet-4-5' },
      images: true,
      pdf: true,
      tools: true,
      thinking: true,
      contextWindow: 200_000,
      maxInput: 200_000,
      maxOutput: 64_000,
    });
    expect(modelCapabilities('deepseek-reasoner', { provider: 'deepseek' })).toMatchObject({
      images: false,
      pdf: false,
      tools: true,
      thinking: true,
    });
  });

  it('reports an input cap below the context window (GPT-5) and a model without PDFs', () => {
    expect(modelCapabilities('gpt-5', { provider: 'openai' })).toMatchObject({
      images: true,
      pdf: false,
      contextWindow: 400_000,
      maxInput: 272_000,
      maxOutput: 128_000,
    });
  });

  it('reads the serving provider’s own row (hosts differ in limits)', () => {
    const direct = modelCapabilities('gemini-2.5-pro', { provider: 'google' });
    const onVertex = modelCapabilities('gemini-2.5-pro', { provider: 'vertex' });
    expect(direct.model).toEqual({ provider: 'google', id: 'gemini-2.5-pro' });
    expect(onVertex.model).toEqual({ provider: 'google-vertex', id: 'gemini-2.5-pro' });
    expect(direct.contextWindow).toBe(1_048_576);
  });

  it('answers "unknown" for every field when the model is not in the catalogue', () => {
    expect(modelCapabilities('my-finetune-v3')).toEqual({
      images: 'unknown',
      pdf: 'unknown',
      tools: 'unknown',
      thinking: 'unknown',
      contextWindow: 'unknown',
      maxInput: 'unknown',
      maxOutput: 'unknown',
    });
    expect(modelCapabilities('qwen3:8b', { provider: 'ollama' }).images).toBe('unknown');
  });

  it('falls back to any provider’s row for a provider without a catalogue (self-hosted vLLM)', () => {
    const capabilities = modelCapabilities('gpt-oss-120b', { provider: 'vllm' });
    expect(capabilities.model?.id).toBe('gpt-oss-120b');
    expect(capabilities.tools).toBe(true);
    expect(typeof capabilities.contextWindow).toBe('number');
  });
});
