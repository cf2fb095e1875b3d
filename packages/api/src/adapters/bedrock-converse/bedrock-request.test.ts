import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../spec/request.js';
import { bedrockCachesPrompts, bedrockThinking, buildBedrockRequest } from './bedrock-request.js';

const base: LlmRequest = {
  model: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
  messages: [{ role: 'user', content: 'hi' }],
};

describe('buildBedrockRequest', () => {
  it('sends only messages for a bare request', () => {
    expect(buildBedrockRequest(base, {})).toEqual({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] });
  });

  it('maps inference settings, thinking, metadata, and merges providerOptions.bedrock last', () => {
    const body = buildBedrockRequest(
      {
        ...base,
        maxOutputTokens: 1000,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        thinking: { type: 'enabled', budgetTokens: 1500 },
        metadata: { user: 'u-1' },
        providerOptions: {
          bedrock: {
            additionalModelRequestFields: { top_k: 5 },
            guardrailConfig: { guardrailIdentifier: 'g', guardrailVersion: '1' },
          },
          anthropic: { ignored: true },
        },
      },
      {},
    );
    expect(body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
      // maxTokens must exceed the budget: 1000 + 1500.
      inferenceConfig: { maxTokens: 2500, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1500 }, top_k: 5 },
      requestMetadata: { user: 'u-1' },
      guardrailConfig: { guardrailIdentifier: 'g', guardrailVersion: '1' },
    });
  });

  it('puts cache points only when the prompt has a boundary and the model caches', () => {
    const request: LlmRequest = {
      ...base,
      system: [{ type: 'text', text: 'S' }, { type: 'cache-boundary' }],
      tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' } }],
    };
    const cached = buildBedrockRequest(request, {});
    expect(cached.system).toEqual([{ text: 'S' }, { cachePoint: { type: 'default' } }]);
    expect(cached.toolConfig?.tools.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    const llama = buildBedrockRequest({ ...request, model: 'meta.llama3-70b-instruct-v1:0' }, {});
    expect(llama.system).toEqual([{ text: 'S' }]);
    expect(llama.toolConfig?.tools).toHaveLength(1);
    const nova = buildBedrockRequest({ ...request, model: 'us.amazon.nova-pro-v1:0' }, {});
    expect(nova.system).toEqual([{ text: 'S' }, { cachePoint: { type: 'default' } }]);
    expect(nova.toolConfig?.tools).toHaveLength(1);
    const forced = buildBedrockRequest(
      { ...request, model: 'arn:aws:bedrock:us-east-1:1:application-inference-profile/x' },
      { promptCaching: true },
    );
    expect(forced.system).toHaveLength(2);
  });
});

describe('bedrockCachesPrompts', () => {
  it.each([
    ['anthropic.claude-3-5-haiku-20241022-v1:0', true],
    ['us.anthropic.claude-3-7-sonnet-20250219-v1:0', true],
    ['anthropic.claude-3-sonnet-20240229-v1:0', false],
    ['anthropic.claude-v2', false],
    ['amazon.nova-lite-v1:0', true],
    ['mistral.mistral-large-2402-v1:0', false],
  ])('%s: %s', (model, expected) => {
    expect(bedrockCachesPrompts(model, undefined)).toBe(expected);
  });

  it('follows an explicit setting', () => {
    expect(bedrockCachesPrompts('mistral.mistral-large-2402-v1:0', true)).toBe(true);
    expect(bedrockCachesPrompts('anthropic.claude-3-7-sonnet-20250219-v1:0', false)).toBe(false);
  });
});

describe('bedrockThinking', () => {
  it('maps a budget, an effort (kept under maxOutputTokens) and disabled', () => {
    expect(bedrockThinking({ type: 'enabled', budgetTokens: 4000 }, undefined)).toEqual({
      type: 'enabled',
      budget_tokens: 4000,
    });
    expect(bedrockThinking({ type: 'effort', effort: 'medium' }, undefined)).toEqual({
      type: 'enabled',
      budget_tokens: 8192,
    });
    expect(bedrockThinking({ type: 'effort', effort: 'high' }, 4000)).toEqual({
      type: 'enabled',
      budget_tokens: 24_576,
    });
    expect(bedrockThinking({ type: 'enabled', budgetTokens: 100 }, 500)).toEqual({
      type: 'enabled',
      budget_tokens: 1024,
    });
    expect(bedrockThinking({ type: 'disabled' }, 1000)).toBeUndefined();
    expect(bedrockThinking(undefined, 1000)).toBeUndefined();
  });
});
